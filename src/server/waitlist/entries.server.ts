/**
 * Joining and leaving the waitlist (docs/decisions/032-waitlist.md).
 *
 * An entry is one patient's wish for an earlier time of one type: with a
 * booking (asked from its link: success screen, the email's link page, the
 * move page) or without one (the wizard found no fitting free time). Its
 * details are sealed (seal.server.ts); in clear it keeps the type, the
 * range, weekdays and part of day, the booking's id and its link token's
 * SHA-256. One entry per booking (a unique index); joining is limited per
 * client and per email address like bookings.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gte } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { bookedSlots, waitlistEntries, waitlistOffers } from '../../../db/schema';
import type { Lang } from '../../i18n/languages';
import { lastBookableDate } from '../../lib/availability';
import { berlinToday } from '../../lib/berlin-time';
import { AppError, type FieldErrors } from '../../lib/errors';
import { daypartMask, daypartsByWeekday, daypartsOn, NEW_BOOKING_MINUTES, weekdayMask, type Daypart, type WaitlistWish } from '../../lib/waitlist-wish';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openContact, sealedContact } from '../appointment-contact/store.server';
import { findById, findByToken, throwUnknownLink, type BookingView } from '../bookings/lookup.server';
import { hashToken, hasBegun, newCancellationToken } from '../bookings/shared.server';
import { loadRules } from '../bookings/slot-sql.server';
import { canonicalEmail, clientHit, rateLimitKey, takeRateLimit, type RateLimit, type RateLimitHit } from '../rate-limit.server';
import { isForeignKeyViolation, isUniqueViolation } from '../../../db/errors';
import { serverHashKey } from '../server-key.server';
import { sealEntry, type EntrySecret } from './seal.server';
import { enqueueEmails } from '../email/queue.server';
import { readEnv } from '../env.server';
import { smsConsent } from '../sms/numbers.server';

/** Like bookings: 10 entries per client address per hour, 3 per email address per day. */
export const WAITLIST_PER_CLIENT: RateLimit = { bucket: 'waitlist-client', max: 10, windowSeconds: 60 * 60 };
export const WAITLIST_PER_RECIPIENT: RateLimit = { bucket: 'waitlist-recipient', max: 3, windowSeconds: 24 * 60 * 60 };

export interface NewPatientEntry {
  appointment_type_id: string;
  first_name: string;
  last_name: string;
  birth_date: string;
  email: string;
  phone: string;
  language: Lang;
}

/** `sms`: offers go by SMS too (a mobile number only; docs/decisions/043-sms-second-channel.md). */
export type JoinRequest = WaitlistWish & { sms?: boolean } & ({ token: string } | { booking_id: string } | NewPatientEntry);

export interface JoinedEntry {
  id: string;
  /** The entry's link token: the joining page takes a time free now with it. */
  token: string;
  typeId: string;
  from: string;
  to: string;
  secret: EntrySecret;
}

function badRange(errors: FieldErrors, detail = 'The dates cannot be used for this consultation type.'): AppError {
  return new AppError('invalid-input', detail, errors);
}

/**
 * The booking a way onto the list names: its link token (404 unknown, 410
 * cancelled by the practice), or its id within NEW_BOOKING_MINUTES of
 * booking (the success screen); 409 too-late once it has begun.
 */
async function bookingOfProof(db: Database, proof: { token: string } | { booking_id: string }, now: Date): Promise<BookingView> {
  let booking: BookingView | null;
  if ('token' in proof) {
    booking = await findByToken(db, proof.token);
    if (!booking) return throwUnknownLink(db, proof.token, now, 'This link is unknown or the appointment was cancelled.');
  } else {
    // The success screen: only a booking made in the last minutes, by its id (which only its answer gave out).
    const since = new Date(now.getTime() - NEW_BOOKING_MINUTES * 60_000);
    const [fresh] = await db
      .select({ id: bookedSlots.id })
      .from(bookedSlots)
      .where(and(eq(bookedSlots.id, proof.booking_id), eq(bookedSlots.source, 'online'), gte(bookedSlots.createdAt, since)));
    booking = fresh ? await findById(db, fresh.id) : null;
    if (!booking) throw new AppError('not-found', 'Please use the link in your confirmation email.');
  }
  if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
    throw new AppError('too-late', 'This appointment has already begun.');
  }
  return booking;
}

export interface AskContext {
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  /** ISO weekdays (1 = Monday … 7 = Sunday) that have time windows: the only ones the form offers. */
  weekdays: number[];
  /** The parts of the day in which the type has start times on any of those weekdays: the only ones the form offers. */
  dayparts: Daypart[];
  /** Per ISO weekday with windows, its parts of the day (the form narrows its choice to the weekdays ticked). */
  dayparts_by_weekday: Record<number, Daypart[]>;
  /** The last date the type can be booked for: the form's latest "until". */
  last_date: string;
  /** The booking the entry would move earlier; null without one. */
  current: { date: string; time: string } | null;
}

/**
 * GET /api/waitlist: what the form is for: the type (its names and the
 * weekdays it has windows on) and the current booking, by the same proofs
 * as joining. 404 for a type not offered online.
 */
export async function askContext(db: Database, proof: { token: string } | { booking_id: string } | { appointment_type_id: string }, now: Date = new Date()): Promise<AskContext> {
  let typeId: string;
  let current: AskContext['current'] = null;
  if ('appointment_type_id' in proof) {
    typeId = proof.appointment_type_id;
  } else {
    const booking = await bookingOfProof(db, proof, now);
    typeId = booking.appointment_type_id;
    current = { date: booking.appointment_date, time: booking.appointment_time };
  }
  const today = berlinToday(now);
  const loaded = await loadRules(db, typeId, today, today, false);
  if (!loaded || !loaded.type.onlineBookable || loaded.windows.length === 0) throw new AppError('not-found', 'This consultation type is not offered online.');
  const byWeekday = daypartsByWeekday(loaded.windows, loaded.type.slotDurationMinutes);
  const weekdays = Object.keys(byWeekday).map(Number).sort((a, b) => a - b);
  return {
    appointment_type_id: typeId,
    type_name: loaded.type.name,
    type_name_en: loaded.type.nameEn,
    weekdays,
    dayparts: daypartsOn(byWeekday),
    dayparts_by_weekday: byWeekday,
    last_date: lastBookableDate(today, loaded.type),
    current,
  };
}

/**
 * POST /api/waitlist: 201 with the new entry; 400 naming the field (`from`,
 * `to`) for a range in the past, reversed, beyond the type's online window
 * or not before the booking; 404/410 for an unknown or practice-cancelled
 * booking link; 409 `already-waiting` for a second entry of one booking;
 * 429 over a limit (nothing stored).
 */
export async function joinWaitlist(
  db: Database,
  request: JoinRequest,
  options: { keys: KeyRing; clientAddress: string; now?: Date },
): Promise<JoinedEntry> {
  const now = options.now ?? new Date();
  let typeId: string;
  let bookingId: string | null = null;
  let current: { date: string; time: string } | null = null;
  let details: Omit<EntrySecret, 'token'>;
  if ('token' in request || 'booking_id' in request) {
    const booking = await bookingOfProof(db, request, now);
    const contact = openContact(await sealedContact(db, booking.id), booking.id, options.keys);
    // Nobody to write to: a booking from before contacts existed, or a key since removed.
    if (!contact) throw new AppError('not-found', 'This booking has no email address for offers.');
    typeId = booking.appointment_type_id;
    bookingId = booking.id;
    current = { date: booking.appointment_date, time: booking.appointment_time };
    // SMS: asked for now (the booking's number must be a mobile one), or agreed with the booking.
    // The phone rules load only here: the every-minute job's purge of this module never needs them.
    const sms = request.sms ? await smsConsent(true, (await import('../../lib/phone')).toE164(contact.phone) ?? '') : contact.sms === true;
    details = {
      email: contact.email,
      firstName: contact.firstName,
      lastName: contact.lastName,
      language: contact.language,
      birthDate: contact.birthDate || null,
      phone: contact.phone || null,
      ...(sms ? { sms: true } : {}),
    };
  } else {
    typeId = request.appointment_type_id;
    const sms = await smsConsent(request.sms, request.phone);
    details = {
      email: request.email,
      firstName: request.first_name,
      lastName: request.last_name,
      language: request.language,
      birthDate: request.birth_date,
      phone: request.phone,
      ...(sms ? { sms: true } : {}),
    };
  }

  const today = berlinToday(now);
  const loaded = await loadRules(db, typeId, today, today, false);
  if (!loaded || !loaded.type.onlineBookable || loaded.windows.length === 0) {
    throw new AppError('invalid-input', 'This consultation type is not offered online.', { appointment_type_id: ['errors.typeRequired'] });
  }
  const last = lastBookableDate(today, loaded.type);
  const errors: FieldErrors = {};
  if (request.from < today) errors.from = ['waitlist.errors.fromPast'];
  else if (request.from > last) errors.from = ['waitlist.errors.beyondWindow'];
  else if (current && request.from >= current.date) errors.from = ['waitlist.errors.notBeforeBooking'];
  if (request.to < today) errors.to = ['waitlist.errors.toPast'];
  else if (request.to > last) errors.to = ['waitlist.errors.beyondWindow'];
  else if (request.from > request.to) errors.to = ['waitlist.errors.rangeReversed'];
  // Only weekdays and parts of the day in which the type has start times: a wish nothing can meet would wait for ever.
  const byWeekday = daypartsByWeekday(loaded.windows, loaded.type.slotDurationMinutes);
  if (request.weekdays?.some((d) => !byWeekday[d])) errors.weekdays = ['waitlist.errors.weekdayNotOffered'];
  else if (request.dayparts?.some((part) => !daypartsOn(byWeekday, request.weekdays).includes(part))) errors.dayparts = ['waitlist.errors.daypartNotOffered'];
  if (Object.keys(errors).length) throw badRange(errors);
  // Nothing after the booking's own day can be earlier than it.
  const to = current && request.to > current.date ? current.date : request.to;

  const secret = serverHashKey();
  const hits: RateLimitHit[] = [
    clientHit(WAITLIST_PER_CLIENT, options.clientAddress, secret),
    { limit: WAITLIST_PER_RECIPIENT, key: rateLimitKey(WAITLIST_PER_RECIPIENT, canonicalEmail(details.email), secret) },
  ];
  await takeRateLimit(db, hits, now, 'Too many waiting-list requests. Please try again later or call us.');

  const id = randomUUID();
  const token = newCancellationToken();
  const entrySecret: EntrySecret = { ...details, token };
  const sealed = sealEntry(entrySecret, id, options.keys);
  // Written before the transaction (which then holds its rows no longer than the inserts), its texts loaded
  // for a patient who joins, not for a function that only reads the waitlist.
  const { joinedEmail } = await import('../email/messages/waitlist.server');
  const joined = joinedEmail(entrySecret, { from: request.from, to, type: loaded.type }, readEnv().SITE_URL);
  try {
    // The entry and its confirmation (with the link off the list) commit together (docs/decisions/035).
    await db.transaction(async (tx) => {
      await tx.insert(waitlistEntries).values({
        id,
        appointmentTypeId: typeId,
        bookingId,
        fromDate: request.from,
        toDate: to,
        weekdays: weekdayMask(request.weekdays),
        dayparts: daypartMask(request.dayparts),
        keyId: sealed.keyId,
        sealed: sealed.sealed,
        tokenHash: hashToken(token),
        createdAt: now,
      });
      await enqueueEmails(tx, [{ message: joined, kind: 'waitlist-joined', audience: 'patient', bookingId }], options.keys, now);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'waitlist_entries_booking_idx')) {
      throw new AppError('already-waiting', 'This appointment is already on the waiting list.');
    }
    // The booking was cancelled or the type deleted meanwhile.
    if (isForeignKeyViolation(error)) throw new AppError('not-found', 'This appointment or consultation type no longer exists.');
    throw error;
  }
  return { id, token, typeId, from: request.from, to, secret: entrySecret };
}

/**
 * POST /api/waitlist/leave with an entry's token or one of its offers':
 * the entry is deleted (its offers keep no link to it). Always 204: a
 * second click on the email's link finds the entry gone, which is what the
 * patient asked for (and the answer tells nobody whether a token exists).
 */
export async function leaveWaitlist(db: Database, token: string): Promise<void> {
  const hash = hashToken(token);
  const deleted = await db.delete(waitlistEntries).where(eq(waitlistEntries.tokenHash, hash)).returning({ id: waitlistEntries.id });
  if (deleted.length) return;
  const [offer] = await db.select({ entryId: waitlistOffers.entryId }).from(waitlistOffers).where(eq(waitlistOffers.tokenHash, hash));
  if (offer?.entryId) await db.delete(waitlistEntries).where(eq(waitlistEntries.id, offer.entryId));
}

