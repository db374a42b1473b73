/**
 * Offering freed times to the waitlist, and taking an offer
 * (docs/decisions/032-waitlist.md).
 *
 * The sweep (`offerFreedSeats`) runs after every request that frees a seat
 * (cancel, move, block lifted, capacity raised, new window) once it has
 * committed, and every minute from the scheduled job. For every type with
 * entries it computes the free times by the wizard's rules (the same pure
 * module as GET /api/availability) and, earliest time first, offers each
 * free seat to at most OFFERS_PER_SEAT fitting entries at once, the
 * earliest asked first. An offer lapses after OFFER_LAPSE_MINUTES
 * unanswered (its link stays valid until the time begins or is taken):
 * then the next ones are asked. An entry with an open offer is asked again
 * only for an earlier time.
 * Sweeps are serialised by a transaction-scoped advisory lock, so the job
 * and a request never ask the same people twice.
 *
 * Nothing is held for anyone: taking an offer books or moves through the
 * same guard as every booking (capacity by seat, blocks, windows; one
 * transaction), so of two patients taking one seat one gets it and the
 * other 409 `taken`, with the next fitting free time offered right away.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { appointmentTypes, bookedSlots, waitlistEntries, waitlistOffers, type AppointmentTypeRow } from '../../../db/schema';
import { availabilityForRange, slotKey } from '../../lib/availability';
import { berlinToday } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { fitsEntry, type EntryWish } from '../../lib/waitlist-schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import { newContact } from '../appointment-contact/store.server';
import { insertBooking } from '../bookings/slot-sql.server';
import { findById } from '../bookings/lookup.server';
import { moveLockedBooking, moveNoticeEmail, type MovedBooking } from '../bookings/move.server';
import { hashToken, hasBegun, hhmm, newCancellationToken, slotUnavailable } from '../bookings/shared.server';
import { checkedRules, loadRules } from '../bookings/slot-sql.server';
import { offerEmail } from '../email/messages/waitlist.server';
import { enqueueEmails, prepareEmail, type QueuedEmail } from '../email/queue.server';
import { bookingEmails, practiceRescheduleEmail } from '../email/senders.server';
import { openEntryOrNull, type EntrySecret } from './seal.server';

/** At most this many offers per free seat at once. */
export const OFFERS_PER_SEAT = 5;
/** An unanswered offer lapses after this long: the next entries are asked too. */
export const OFFER_LAPSE_MINUTES = 30;
/** Serialises sweeps across processes (pg_advisory_xact_lock key). */
const SWEEP_LOCK = 320_032;

interface EntryRow extends EntryWish {
  id: string;
  typeId: string;
  keyId: string;
  sealed: string;
  createdAt: Date;
}

interface OfferRow {
  entryId: string;
  date: string;
  time: string;
  createdAt: Date;
}

interface FreeTime {
  date: string;
  time: string;
  free: number;
}

/** The free times of a type in [from, to] by the wizard's rules, with the number of free seats; none for a paused type. */
async function freeTimesOf(db: Executor, typeId: string, from: string, to: string, now: Date): Promise<{ type: AppointmentTypeRow; times: FreeTime[] } | null> {
  const loaded = await loadRules(db, typeId, from, to, true);
  if (!loaded || !loaded.type.onlineBookable) return null;
  const bookings = new Map(loaded.counts.map(([date, time, n]) => [slotKey(date, hhmm(time)), Number(n)]));
  const days = availabilityForRange(from, to, {
    type: loaded.type,
    windows: loaded.windows,
    blockedDates: loaded.blockedDates,
    blockedRanges: loaded.blockedRanges,
    bookings,
    now,
  });
  const times = days.flatMap((day) =>
    day.times.map((time) => ({ date: day.date, time, free: loaded.type.maxSlotsPerTime - (bookings.get(slotKey(day.date, time)) ?? 0) })),
  );
  return { type: loaded.type, times };
}

async function entriesOf(db: Executor, typeId?: string, entryId?: string): Promise<EntryRow[]> {
  const rows = await db
    .select({
      id: waitlistEntries.id,
      typeId: waitlistEntries.appointmentTypeId,
      fromDate: waitlistEntries.fromDate,
      toDate: waitlistEntries.toDate,
      weekdays: waitlistEntries.weekdays,
      dayparts: waitlistEntries.dayparts,
      keyId: waitlistEntries.keyId,
      sealed: waitlistEntries.sealed,
      createdAt: waitlistEntries.createdAt,
      bookingDate: bookedSlots.appointmentDate,
      bookingTime: bookedSlots.appointmentTime,
    })
    .from(waitlistEntries)
    .leftJoin(bookedSlots, eq(bookedSlots.id, waitlistEntries.bookingId))
    .where(and(typeId ? eq(waitlistEntries.appointmentTypeId, typeId) : undefined, entryId ? eq(waitlistEntries.id, entryId) : undefined))
    .orderBy(waitlistEntries.createdAt, waitlistEntries.id);
  return rows.map(({ bookingDate, bookingTime, ...row }) => ({
    ...row,
    current: bookingDate && bookingTime ? { date: bookingDate, time: hhmm(bookingTime) } : null,
  }));
}

interface PlannedOffer {
  entry: EntryRow;
  type: AppointmentTypeRow;
  date: string;
  time: string;
  token: string;
}

/**
 * The offers a sweep makes for one type: free times ascending; per time,
 * up to OFFERS_PER_SEAT × free seats open offers, to fitting entries not yet
 * offered that time and without an open offer of that time or an earlier
 * one, earliest asked first.
 */
function planOffers(type: AppointmentTypeRow, times: FreeTime[], entries: EntryRow[], offers: OfferRow[], now: Date): PlannedOffer[] {
  const lapse = now.getTime() - OFFER_LAPSE_MINUTES * 60_000;
  const freeKeys = new Set(times.map((t) => slotKey(t.date, t.time)));
  const open = offers.filter((o) => o.createdAt.getTime() > lapse && freeKeys.has(slotKey(o.date, o.time)));
  // An entry's earliest open offer: it is asked again only for an earlier time (or once that offer lapses).
  const busyFrom = new Map<string, string>();
  for (const o of open) {
    const key = slotKey(o.date, o.time);
    if (!busyFrom.has(o.entryId) || key < busyFrom.get(o.entryId)!) busyFrom.set(o.entryId, key);
  }
  const offeredBefore = new Set(offers.map((o) => `${o.entryId} ${slotKey(o.date, o.time)}`));
  const openPerTime = new Map<string, number>();
  for (const o of open) openPerTime.set(slotKey(o.date, o.time), (openPerTime.get(slotKey(o.date, o.time)) ?? 0) + 1);
  const planned: PlannedOffer[] = [];
  for (const t of times) {
    const key = slotKey(t.date, t.time);
    let budget = OFFERS_PER_SEAT * t.free - (openPerTime.get(key) ?? 0);
    for (const entry of entries) {
      if (budget <= 0) break;
      const busy = busyFrom.get(entry.id);
      if ((busy !== undefined && busy <= key) || offeredBefore.has(`${entry.id} ${key}`) || !fitsEntry(entry, t.date, t.time)) continue;
      planned.push({ entry, type, date: t.date, time: t.time, token: newCancellationToken() });
      busyFrom.set(entry.id, key);
      budget--;
    }
  }
  return planned;
}

export interface SweepOptions {
  keys: KeyRing | null;
  siteUrl: string;
  now?: Date;
  /** Only this type (the request that freed a seat of it); every type when absent. */
  typeId?: string;
}

/** Offers freed times to fitting entries and queues the offer emails with them (docs/decisions/035); answers how many. */
export async function offerFreedSeats(db: Database, options: SweepOptions): Promise<{ offered: number }> {
  const now = options.now ?? new Date();
  const today = berlinToday(now);
  const planned = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SWEEP_LOCK})`);
    const entries = (await entriesOf(tx, options.typeId)).filter((e) => e.toDate >= today);
    if (!entries.length) return [];
    const typeIds = [...new Set(entries.map((e) => e.typeId))];
    const offers = await tx
      .select({
        entryId: waitlistOffers.entryId,
        typeId: waitlistOffers.appointmentTypeId,
        date: waitlistOffers.appointmentDate,
        time: waitlistOffers.appointmentTime,
        createdAt: waitlistOffers.createdAt,
      })
      .from(waitlistOffers)
      .where(and(isNotNull(waitlistOffers.entryId), inArray(waitlistOffers.appointmentTypeId, typeIds), gte(waitlistOffers.appointmentDate, today)));
    const all: PlannedOffer[] = [];
    for (const typeId of typeIds) {
      const ofType = entries.filter((e) => e.typeId === typeId);
      const from = ofType.reduce((min, e) => (e.fromDate < min ? e.fromDate : min), ofType[0]!.fromDate);
      const to = ofType.reduce((max, e) => (e.toDate > max ? e.toDate : max), ofType[0]!.toDate);
      const free = await freeTimesOf(tx, typeId, from < today ? today : from, to, now);
      if (!free || !free.times.length) continue;
      const typeOffers = offers.filter((o) => o.typeId === typeId).map((o) => ({ ...o, entryId: o.entryId!, time: hhmm(o.time) }));
      all.push(...planOffers(free.type, free.times, ofType, typeOffers, now));
    }
    // An entry no key opens gets no offer (nobody to write to); the others get theirs with the offer rows.
    const emails: QueuedEmail[] = [];
    const offered = all.filter((p) => {
      const secret = openEntryOrNull({ keyId: p.entry.keyId, sealed: p.entry.sealed }, p.entry.id, options.keys);
      if (!secret) return false;
      const message = offerEmail(secret, { token: p.token, date: p.date, time: p.time, type: p.type, current: p.entry.current }, options.siteUrl);
      emails.push({ message, kind: 'waitlist-offer', audience: 'patient' });
      return true;
    });
    if (offered.length && options.keys) {
      await tx.insert(waitlistOffers).values(
        offered.map((p) => ({
          entryId: p.entry.id,
          appointmentTypeId: p.type.id,
          appointmentDate: p.date,
          appointmentTime: p.time,
          tokenHash: hashToken(p.token),
          createdAt: now,
        })),
      );
      await enqueueEmails(tx, emails, options.keys, now);
    }
    return offered;
  });
  return { offered: planned.length };
}

interface OfferView {
  offerId: string;
  entryId: string | null;
  typeId: string;
  date: string;
  time: string;
  type: AppointmentTypeRow;
}

async function offerByToken(db: Executor, token: string): Promise<OfferView | null> {
  const [row] = await db
    .select({
      offerId: waitlistOffers.id,
      entryId: waitlistOffers.entryId,
      typeId: waitlistOffers.appointmentTypeId,
      date: waitlistOffers.appointmentDate,
      time: waitlistOffers.appointmentTime,
      type: appointmentTypes,
    })
    .from(waitlistOffers)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistOffers.appointmentTypeId))
    .where(eq(waitlistOffers.tokenHash, hashToken(token)));
  return row ? { ...row, time: hhmm(row.time) } : null;
}

function expired(): AppError {
  return new AppError('expired', 'This offer is no longer valid.');
}

export interface NextOffer {
  token: string;
  appointment_date: string;
  appointment_time: string;
}

/**
 * The entry's next fitting free time other than `except`, offered at once
 * (its link token answered instead of emailed: the patient is on the page).
 */
async function nextOfferFor(db: Database, entryId: string, except: { date: string; time: string }, now: Date): Promise<NextOffer | null> {
  const [entry] = await entriesOf(db, undefined, entryId);
  if (!entry) return null;
  const today = berlinToday(now);
  const free = await freeTimesOf(db, entry.typeId, entry.fromDate < today ? today : entry.fromDate, entry.toDate, now);
  const next = free?.times.find((t) => !(t.date === except.date && t.time === except.time) && fitsEntry(entry, t.date, t.time));
  if (!next) return null;
  const token = newCancellationToken();
  await db
    .insert(waitlistOffers)
    .values({ entryId, appointmentTypeId: entry.typeId, appointmentDate: next.date, appointmentTime: next.time, tokenHash: hashToken(token), createdAt: now });
  return { token, appointment_date: next.date, appointment_time: next.time };
}

async function taken(db: Database, offer: OfferView, now: Date): Promise<never> {
  const next = offer.entryId ? await nextOfferFor(db, offer.entryId, offer, now) : null;
  throw new AppError('taken', 'This time has already been taken. You stay on the waiting list.', undefined, { extra: { next } });
}

export interface OfferDetails {
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  current: { date: string; time: string } | null;
}

/** GET /api/waitlist/offer: 404 unknown, 410 expired (entry gone, time begun), 409 taken (with the next offer if any). */
export async function offerDetails(db: Database, token: string, now: Date = new Date()): Promise<OfferDetails> {
  const offer = await offerByToken(db, token);
  if (!offer) throw new AppError('not-found', 'This link is unknown.');
  if (!offer.entryId || hasBegun(offer.date, offer.time, now)) throw expired();
  const [entry] = await entriesOf(db, undefined, offer.entryId);
  if (!entry) throw expired();
  // The booking was moved (by the practice) to this time or earlier meanwhile: nothing left to offer.
  if (entry.current && !fitsEntry({ ...entry, fromDate: offer.date, toDate: offer.date, weekdays: 127, dayparts: 3 }, offer.date, offer.time)) throw expired();
  const free = await freeTimesOf(db, offer.typeId, offer.date, offer.date, now);
  if (!free?.times.some((t) => t.time === offer.time)) return taken(db, offer, now);
  return {
    appointment_type_id: offer.typeId,
    type_name: offer.type.name,
    type_name_en: offer.type.nameEn,
    appointment_date: offer.date,
    appointment_time: offer.time,
    current: entry.current,
  };
}

export type TakenOffer =
  | { kind: 'moved'; moved: MovedBooking }
  | {
      kind: 'booked';
      booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string; reference: string };
      type: AppointmentTypeRow;
      /** The new booking's link token, for its confirmation email. */
      token: string;
      secret: EntrySecret;
    };

/**
 * POST /api/waitlist/offer: in one transaction, the entry locked, the
 * booking moved (same UID, SEQUENCE + 1, reminder follows) or a new online
 * booking made with its sealed contact, through the guard of every booking;
 * the entry is deleted with it. 409 `taken` when the seat is gone (the
 * entry stays, the next offer is answered), 410 when the entry or its
 * booking is gone or the time has begun, 404 for an unknown link.
 */
export async function takeOffer(db: Database, token: string, keys: KeyRing | null, now: Date = new Date()): Promise<TakenOffer> {
  const offer = await offerByToken(db, token);
  if (!offer) throw new AppError('not-found', 'This link is unknown.');
  if (!offer.entryId || hasBegun(offer.date, offer.time, now)) throw expired();
  const entryId = offer.entryId;
  try {
    return await db.transaction(async (tx) => {
      const [entry] = await tx
        .select({ id: waitlistEntries.id, bookingId: waitlistEntries.bookingId, keyId: waitlistEntries.keyId, sealed: waitlistEntries.sealed })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.id, entryId))
        .for('update');
      if (!entry) throw expired();
      const target = { date: offer.date, time: offer.time };
      if (entry.bookingId) {
        const booking = await findById(tx, entry.bookingId, true);
        if (!booking || `${offer.date} ${offer.time}` >= `${booking.appointment_date} ${booking.appointment_time}`) throw expired();
        const moved = await moveLockedBooking(tx, booking, target, { now, rules: 'online', keys });
        await tx.delete(waitlistEntries).where(eq(waitlistEntries.id, entry.id));
        // The move email with the updated .ics (same UID, higher SEQUENCE) and the practice's notice, with the move.
        const notice = moveNoticeEmail('moved', moved);
        const practice = practiceRescheduleEmail({
          bookingId: moved.booking.id,
          reference: moved.booking.reference,
          type: moved.type,
          old: moved.old,
          moved: target,
          language: moved.contact?.language ?? 'de',
        });
        await enqueueEmails(tx, [...(notice ? [notice] : []), practice], keys ?? undefined, now);
        return { kind: 'moved' as const, moved };
      }
      const secret = openEntryOrNull({ keyId: entry.keyId, sealed: entry.sealed }, entry.id, keys);
      if (!secret || !keys) throw new AppError('not-configured', 'The waiting list cannot be read at the moment. Please call us.');
      const loaded = await checkedRules(tx, offer.typeId, offer.date, offer.time, now, 'online');
      if (!loaded.type.onlineBookable) throw slotUnavailable('unknown-type');
      const id = randomUUID();
      const linkToken = newCancellationToken();
      const contact = newContact(
        id,
        {
          email: secret.email,
          firstName: secret.firstName,
          lastName: secret.lastName,
          language: secret.language,
          token: linkToken,
          // The entry's details become the booking's, as in step 3 (docs/decisions/025).
          birthDate: secret.birthDate ?? '',
          phone: secret.phone ?? '',
        },
        keys,
        { date: offer.date, time: offer.time, reminder: false },
        now,
      );
      const result = await insertBooking(tx, {
        id,
        typeId: offer.typeId,
        date: offer.date,
        time: offer.time,
        tokenHash: hashToken(linkToken),
        source: 'online',
        contact,
        inTransaction: true,
        now,
        // The booking's emails, queued by its own statement (docs/decisions/035).
        emails: (reference) =>
          bookingEmails({
            bookingId: id,
            token: linkToken,
            reference,
            type: loaded.type,
            date: offer.date,
            time: offer.time,
            patient: { first_name: secret.firstName, last_name: secret.lastName, birth_date: secret.birthDate ?? '', phone: secret.phone ?? '', email: secret.email },
            language: secret.language,
          }).map((e) => prepareEmail(e, keys)),
      });
      if ('rejected' in result) throw slotUnavailable(result.rejected);
      await tx.delete(waitlistEntries).where(eq(waitlistEntries.id, entry.id));
      return {
        kind: 'booked' as const,
        booking: {
          id: result.booked.id,
          appointment_type_id: result.booked.appointmentTypeId,
          appointment_date: result.booked.appointmentDate,
          appointment_time: hhmm(result.booked.appointmentTime),
          reference: result.booked.reference,
        },
        type: loaded.type,
        token: linkToken,
        secret,
      };
    });
  } catch (error) {
    // The guard refused (full, blocked, no longer a start time): someone else was first.
    if (error instanceof AppError && error.code === 'slot-unavailable') return taken(db, offer, now);
    throw error;
  }
}
