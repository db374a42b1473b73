/**
 * Offering freed times to the waitlist, and taking an offer
 * (docs/decisions/032-waitlist.md, docs/decisions/038-waitlist-offers-for-freed-times.md).
 *
 * The sweep (`offerFreedSeats`) runs after every request that frees a seat
 * (cancel, move, block lifted, capacity raised, new window) once it has
 * committed, and every minute from the scheduled job. For every type with
 * entries it computes the free times by the wizard's rules (the same pure
 * module as GET /api/availability) and, earliest time first, offers each
 * free seat to at most OFFERS_PER_SEAT fitting entries at once, the
 * earliest asked first, under these rules:
 * - only a time that became free after the entry was made (the change that
 *   freed it wrote when, free-times.server.ts): what was free when the
 *   patient asked was shown to them to book at once;
 * - not a time starting within OFFER_LEAD_MINUTES (bookings are allowed up
 *   to the start, so the type's own notice is never longer);
 * - emails only from OFFER_HOURS.from to OFFER_HOURS.to Berlin time: a time
 *   freed at night is offered by the morning's first sweep if still free;
 * - one open offer per entry (its time still free), and at most
 *   OFFERS_PER_ENTRY_PER_DAY offers per entry per Berlin day.
 * An offer lapses after OFFER_LAPSE_MINUTES unanswered (its link stays
 * valid until the time begins or is taken): then the next ones are asked.
 * Sweeps are serialised by a transaction-scoped advisory lock, so the job
 * and a request never ask the same people twice.
 *
 * Reading an offer (GET) never writes. Nothing is held for anyone: taking an
 * offer books or moves through the same guard as every booking (capacity
 * by seat, blocks, windows; one transaction), so of two patients taking one
 * seat one gets it and the other 409 `taken` with the next fitting free
 * time, which they may take with the same link.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { appointmentTypes, bookedSlots, waitlistEntries, waitlistOffers, type AppointmentTypeRow } from '../../../db/schema';
import { slotKey } from '../../lib/availability';
import { berlinInstant, berlinToday, berlinWallClock } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { fitsEntry, type EntryWish } from '../../lib/waitlist-wish';
import type { KeyRing } from '../appointment-contact/keys.server';
import { newContact, openContact, sealedContact } from '../appointment-contact/store.server';
import { insertBooking } from '../bookings/slot-sql.server';
import { findById } from '../bookings/lookup.server';
import type { MovedBooking } from '../bookings/move.server';
import { hashToken, hasBegun, hhmm, newCancellationToken, slotUnavailable } from '../bookings/shared.server';
import { checkedRules } from '../bookings/slot-sql.server';
import { enqueueEmails, prepareEmail, type QueuedEmail } from '../email/queue.server';
import { freedTimesOf, freeTimesOf, type FreeTime } from './free-times.server';
import { openEntryOrNull, type EntrySecret } from './seal.server';
import { enqueueSms } from '../sms/queue.server';

/** At most this many offers per free seat at once. */
export const OFFERS_PER_SEAT = 5;
/** An unanswered offer lapses after this long: the next entries are asked too. */
export const OFFER_LAPSE_MINUTES = 30;
/** No offer for a time starting sooner than this. */
export const OFFER_LEAD_MINUTES = 120;
/** Offer emails go out only in these Berlin hours [from, to). */
export const OFFER_HOURS = { from: '07:00', to: '20:00' } as const;
/** At most this many offers per entry per Berlin day. */
export const OFFERS_PER_ENTRY_PER_DAY = 2;
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

/** Whether offer emails may go out at `now` (Berlin wall clock, [07:00, 20:00)). */
export function withinOfferHours(now: Date): boolean {
  const { time } = berlinWallClock(now);
  return time >= OFFER_HOURS.from && time < OFFER_HOURS.to;
}

/**
 * The offers a sweep makes for one type: free times ascending; per time, up
 * to OFFERS_PER_SEAT × free seats unlapsed offers, to fitting entries made
 * before the time became free, that have no open offer (an offer whose time
 * is still free), fewer than OFFERS_PER_ENTRY_PER_DAY offers today and were
 * not offered that time before; the earliest asked first.
 */
export function planOffers(
  type: AppointmentTypeRow,
  times: FreeTime[],
  entries: EntryRow[],
  offers: OfferRow[],
  freedAt: ReadonlyMap<string, Date>,
  now: Date,
): PlannedOffer[] {
  const lapse = now.getTime() - OFFER_LAPSE_MINUTES * 60_000;
  const lead = now.getTime() + OFFER_LEAD_MINUTES * 60_000;
  const today = berlinToday(now);
  const freeKeys = new Set(times.map((t) => slotKey(t.date, t.time)));
  // One open offer per entry: an entry whose offered time is still free is not asked again.
  const busy = new Set(offers.filter((o) => freeKeys.has(slotKey(o.date, o.time))).map((o) => o.entryId));
  const today_ = new Map<string, number>();
  for (const o of offers) if (berlinToday(o.createdAt) === today) today_.set(o.entryId, (today_.get(o.entryId) ?? 0) + 1);
  const offeredBefore = new Set(offers.map((o) => `${o.entryId} ${slotKey(o.date, o.time)}`));
  const unlapsedPerTime = new Map<string, number>();
  for (const o of offers) {
    if (o.createdAt.getTime() > lapse && freeKeys.has(slotKey(o.date, o.time))) {
      unlapsedPerTime.set(slotKey(o.date, o.time), (unlapsedPerTime.get(slotKey(o.date, o.time)) ?? 0) + 1);
    }
  }
  const planned: PlannedOffer[] = [];
  for (const t of times) {
    const key = slotKey(t.date, t.time);
    const freed = freedAt.get(`${type.id} ${key}`);
    const start = berlinInstant(t.date, t.time);
    if (!freed || !start || start.getTime() < lead) continue;
    let budget = OFFERS_PER_SEAT * t.free - (unlapsedPerTime.get(key) ?? 0);
    for (const entry of entries) {
      if (budget <= 0) break;
      if (busy.has(entry.id) || (today_.get(entry.id) ?? 0) >= OFFERS_PER_ENTRY_PER_DAY) continue;
      // Free when the patient asked (shown to them then) is not "frei geworden": only a time freed since.
      if (freed.getTime() < entry.createdAt.getTime()) continue;
      if (offeredBefore.has(`${entry.id} ${key}`) || !fitsEntry(entry, t.date, t.time)) continue;
      planned.push({ entry, type, date: t.date, time: t.time, token: newCancellationToken() });
      busy.add(entry.id);
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
  /** Outside production only: offer at any hour (the browser tests run at any time of day). */
  anyHour?: boolean;
}

/** Offers freed times to fitting entries and queues the offer emails with them (docs/decisions/035); answers how many. */
export async function offerFreedSeats(db: Database, options: SweepOptions): Promise<{ offered: number }> {
  const now = options.now ?? new Date();
  if (!options.anyHour && !withinOfferHours(now)) return { offered: 0 };
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
    const freedAt = await freedTimesOf(tx, typeIds, today);
    const all: PlannedOffer[] = [];
    for (const typeId of typeIds) {
      const ofType = entries.filter((e) => e.typeId === typeId);
      const from = ofType.reduce((min, e) => (e.fromDate < min ? e.fromDate : min), ofType[0]!.fromDate);
      const to = ofType.reduce((max, e) => (e.toDate > max ? e.toDate : max), ofType[0]!.toDate);
      const free = await freeTimesOf(tx, typeId, from < today ? today : from, to, now);
      if (!free || !free.times.length) continue;
      const entryIds = new Set(ofType.map((e) => e.id));
      const typeOffers = offers
        .filter((o) => entryIds.has(o.entryId!))
        .map((o) => ({ ...o, entryId: o.entryId!, time: hhmm(o.time) }));
      all.push(...planOffers(free.type, free.times, ofType, typeOffers, freedAt, now));
    }
    if (!all.length) return [];
    // The texts load with the first offer a process makes (a minute without one never loads them).
    const [{ offerEmail }, { offerSms }] = await Promise.all([import('../email/messages/waitlist.server'), import('../sms/notices.server')]);
    // An entry no key opens gets no offer (nobody to write to); the others get theirs with the offer rows.
    const emails: QueuedEmail[] = [];
    const secrets = new Map<string, EntrySecret>();
    const offered = all.filter((p) => {
      const secret = openEntryOrNull({ keyId: p.entry.keyId, sealed: p.entry.sealed }, p.entry.id, options.keys);
      if (!secret) return false;
      const message = offerEmail(secret, { token: p.token, date: p.date, time: p.time, type: p.type, current: p.entry.current }, options.siteUrl);
      emails.push({ message, kind: 'waitlist-offer', audience: 'patient' });
      secrets.set(p.token, secret);
      return true;
    });
    if (offered.length && options.keys) {
      const rows = await tx
        .insert(waitlistOffers)
        .values(
          offered.map((p) => ({
            entryId: p.entry.id,
            appointmentTypeId: p.type.id,
            appointmentDate: p.date,
            appointmentTime: p.time,
            tokenHash: hashToken(p.token),
            createdAt: now,
          })),
        )
        .returning({ id: waitlistOffers.id, tokenHash: waitlistOffers.tokenHash });
      await enqueueEmails(tx, emails, options.keys, now);
      // Beside the email, the offer by SMS where the patient asked for it: the first to answer gets the time (docs/decisions/043).
      const idOf = new Map(rows.map((r) => [r.tokenHash, r.id]));
      const texts = offered.flatMap((p) => {
        const secret = secrets.get(p.token)!;
        const plan = offerSms({ phone: secret.phone, sms: secret.sms, language: secret.language, offerId: idOf.get(hashToken(p.token))!, token: p.token, date: p.date, time: p.time });
        return plan ? [plan] : [];
      });
      if (texts.length) await enqueueSms(tx, texts, options.keys, now);
    }
    return offered;
  });
  return { offered: planned.length };
}

interface OfferView {
  offerId: string;
  entryId: string | null;
  bookingId: string | null;
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
      bookingId: waitlistOffers.bookingId,
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

export interface NextTime {
  appointment_date: string;
  appointment_time: string;
}

/** The entry's earliest fitting free time other than `except` (read only: the patient may take it with the same link). */
async function nextTimeFor(db: Executor, entry: EntryRow, except: { date: string; time: string } | null, now: Date): Promise<NextTime | null> {
  const today = berlinToday(now);
  const free = await freeTimesOf(db, entry.typeId, entry.fromDate < today ? today : entry.fromDate, entry.toDate, now);
  const next = free?.times.find((t) => !(except && t.date === except.date && t.time === except.time) && fitsEntry(entry, t.date, t.time));
  return next ? { appointment_date: next.date, appointment_time: next.time } : null;
}

/** The fitting free times of an entry, earliest first (the join's answer: book them at once). */
export async function fittingFreeTimes(db: Executor, entryId: string, now: Date, limit: number): Promise<NextTime[]> {
  const [entry] = await entriesOf(db, undefined, entryId);
  if (!entry) return [];
  const today = berlinToday(now);
  const free = await freeTimesOf(db, entry.typeId, entry.fromDate < today ? today : entry.fromDate, entry.toDate, now);
  return (free?.times ?? [])
    .filter((t) => fitsEntry(entry, t.date, t.time))
    .slice(0, limit)
    .map((t) => ({ appointment_date: t.date, appointment_time: t.time }));
}

async function taken(db: Executor, entryId: string | null, except: { date: string; time: string } | null, now: Date): Promise<never> {
  const [entry] = entryId ? await entriesOf(db, undefined, entryId) : [];
  const next = entry ? await nextTimeFor(db, entry, except, now) : null;
  throw new AppError('taken', 'This time has already been taken. You stay on the waiting list.', undefined, { extra: { next } });
}

export interface OfferDetails {
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  current: { date: string; time: string } | null;
  /** Set once this offer's link became a booking: the booking's time above, its reference and link token. */
  taken_by_you?: true;
  booking?: { reference: string; token: string | null };
}

/**
 * GET /api/waitlist/offer, which never writes: 404 unknown; 200 with
 * `taken_by_you` once this link became a booking (its current time, reference
 * and link); 410 expired (entry gone, time begun); 409 taken with the next
 * fitting free time (no new offer: the same link takes it).
 */
export async function offerDetails(db: Database, token: string, keys: KeyRing | null, now: Date = new Date()): Promise<OfferDetails> {
  const offer = await offerByToken(db, token);
  if (!offer) throw new AppError('not-found', 'This link is unknown.');
  const base = { appointment_type_id: offer.typeId, type_name: offer.type.name, type_name_en: offer.type.nameEn };
  if (offer.bookingId) {
    const booking = await findById(db, offer.bookingId);
    if (booking) {
      const contact = openContact(await sealedContact(db, booking.id), booking.id, keys);
      return {
        ...base,
        appointment_date: booking.appointment_date,
        appointment_time: booking.appointment_time,
        current: null,
        taken_by_you: true,
        booking: { reference: booking.reference, token: contact?.token || null },
      };
    }
  }
  if (!offer.entryId || hasBegun(offer.date, offer.time, now)) throw expired();
  const [entry] = await entriesOf(db, undefined, offer.entryId);
  if (!entry) throw expired();
  // The booking was moved (by the practice) to this time or earlier meanwhile: nothing left to offer.
  if (entry.current && !fitsEntry({ ...entry, fromDate: offer.date, toDate: offer.date, weekdays: 127, dayparts: 3 }, offer.date, offer.time)) throw expired();
  const free = await freeTimesOf(db, offer.typeId, offer.date, offer.date, now);
  if (!free?.times.some((t) => t.time === offer.time)) return taken(db, offer.entryId, offer, now);
  return { ...base, appointment_date: offer.date, appointment_time: offer.time, current: entry.current };
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
 * the entry is deleted with it and the offer remembers the booking it
 * became. `token` is an offer's link token (its time, or `target`: the next
 * free time shown after a lost race) or the entry's own (`target` required:
 * a time that was free when the patient asked). 409 `taken` when the seat is
 * gone (the entry stays; the next fitting free time in the answer), 410 when
 * the entry or its booking is gone or the time has begun, 404 for an
 * unknown link, 400 for a time outside the entry's wish.
 */
export async function takeOffer(
  db: Database,
  token: string,
  keys: KeyRing | null,
  now: Date = new Date(),
  requested?: { date: string; time: string },
): Promise<TakenOffer> {
  const offer = await offerByToken(db, token);
  let entryId: string | null;
  if (offer) {
    entryId = offer.entryId;
  } else {
    const [entry] = await db.select({ id: waitlistEntries.id }).from(waitlistEntries).where(eq(waitlistEntries.tokenHash, hashToken(token)));
    if (!entry) throw new AppError('not-found', 'This link is unknown.');
    if (!requested) throw new AppError('invalid-input', 'Which time?', { appointment_date: ['errors.dateInvalid'] });
    entryId = entry.id;
  }
  const target = requested ?? { date: offer!.date, time: offer!.time };
  if (!entryId || hasBegun(target.date, target.time, now)) throw expired();
  const [wish] = await entriesOf(db, undefined, entryId);
  if (!wish) throw expired();
  if (requested && !fitsEntry(wish, requested.date, requested.time)) {
    throw new AppError('invalid-input', 'This time is outside the waiting-list entry.', { appointment_time: ['errors.timeInvalid'] });
  }
  const lockedEntryId = entryId;
  // The move and the booking's emails, loaded before the transaction so its locks never wait for code.
  const [{ moveLockedBooking, moveNoticeEmail }, { bookingEmails, practiceRescheduleEmail }] = await Promise.all([
    import('../bookings/move.server'),
    import('../email/senders.server'),
  ]);
  try {
    return await db.transaction(async (tx) => {
      const [entry] = await tx
        .select({ id: waitlistEntries.id, bookingId: waitlistEntries.bookingId, keyId: waitlistEntries.keyId, sealed: waitlistEntries.sealed })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.id, lockedEntryId))
        .for('update');
      if (!entry) throw expired();
      // The offer's link shows the booking it became (GET answers taken_by_you).
      const remember = async (bookingId: string) => {
        if (offer) await tx.update(waitlistOffers).set({ bookingId }).where(eq(waitlistOffers.id, offer.offerId));
      };
      if (entry.bookingId) {
        const booking = await findById(tx, entry.bookingId, true);
        if (!booking || `${target.date} ${target.time}` >= `${booking.appointment_date} ${booking.appointment_time}`) throw expired();
        const moved = await moveLockedBooking(tx, booking, target, { now, rules: 'online', keys });
        await tx.delete(waitlistEntries).where(eq(waitlistEntries.id, entry.id));
        await remember(booking.id);
        // The move email with the updated .ics (same UID, higher SEQUENCE) and the practice's notice, with the move.
        const notice = moveNoticeEmail('moved', moved);
        const practice = practiceRescheduleEmail({
          bookingId: moved.booking.id,
          reference: moved.booking.reference,
          type: moved.type,
          old: moved.old,
          moved: target,
          language: moved.contact?.language ?? 'de',
          via: 'waitlist',
        });
        await enqueueEmails(tx, [...(notice ? [notice] : []), practice], keys ?? undefined, now);
        return { kind: 'moved' as const, moved };
      }
      const secret = openEntryOrNull({ keyId: entry.keyId, sealed: entry.sealed }, entry.id, keys);
      if (!secret || !keys) throw new AppError('not-configured', 'The waiting list cannot be read at the moment. Please call us.');
      const loaded = await checkedRules(tx, wish.typeId, target.date, target.time, now, 'online');
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
          ...(secret.sms ? { sms: true } : {}),
        },
        keys,
        { date: target.date, time: target.time, reminder: false },
        now,
      );
      const result = await insertBooking(tx, {
        id,
        typeId: wish.typeId,
        date: target.date,
        time: target.time,
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
            date: target.date,
            time: target.time,
            patient: { first_name: secret.firstName, last_name: secret.lastName, birth_date: secret.birthDate ?? '', phone: secret.phone ?? '', email: secret.email },
            language: secret.language,
          }).map((e) => prepareEmail(e, keys)),
      });
      if ('rejected' in result) throw slotUnavailable(result.rejected);
      await tx.delete(waitlistEntries).where(eq(waitlistEntries.id, entry.id));
      await remember(id);
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
    if (error instanceof AppError && error.code === 'slot-unavailable') return taken(db, lockedEntryId, target, now);
    throw error;
  }
}
