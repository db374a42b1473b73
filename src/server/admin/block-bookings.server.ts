/**
 * A block over existing bookings (docs/decisions/021, 035): never saved
 * silently. Saving a block (one day, part of a day, or a date range with
 * `end_date`) first looks for the live bookings it would cover; without
 * `bookings` it answers 409 has-bookings listing them with the patient's
 * name and phone and whether an email will go; with "cancel" each is
 * cancelled as by "Absagen" (tombstone, the contact kept until the day's
 * end, the patient's email queued in the same transaction); with "keep" they
 * stay and only new bookings are refused.
 *
 * Concurrency: the transaction first takes a SHARE ROW EXCLUSIVE lock on
 * booked_slots. It waits for bookings and moves in progress and holds off
 * new ones until the block is committed; a booking statement that then runs
 * sees the block (its snapshot is taken after the lock is granted) and is
 * refused. So no booking slips under a block between the look and the save
 * (practice-changes-races.test.ts). The lock conflicts with itself, so two
 * blocks saved at once queue rather than deadlock.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { blockedDates } from '../../../db/schema';
import { addDaysToDate } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import type { BlockedDateInput } from '../../lib/admin-schemas';
import type { KeyRing } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { findById } from '../bookings/lookup.server';
import type { Lang } from '../../i18n/languages';
import { openContact, sealedContact } from '../appointment-contact/store.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { hasBegun, hhmm, rowsOf } from '../bookings/shared.server';
import { cancelLockedAsPractice, type PatientChannel, type PracticeCancelled } from '../bookings/staff.server';
import { smsNumberOf } from '../sms/notices.server';
import { blockedDateById, type BlockedDateDto } from './blocked-dates.server';
import { refuseUnconfirmedDetails, typeTerms } from './message-check.server';
import { withTypeReference } from './shared.server';

/** One booking a block would cover (the body of 409 has-bookings). */
export interface CoveredBooking {
  id: string;
  reference: string;
  appointment_date: string;
  appointment_time: string;
  type_name: string;
  type_name_en: string | null;
  /** The appointment has begun or passed: a block keeps it whatever `bookings` says. */
  begun: boolean;
  /** The language of the patient's emails (online bookings whose contact opens); null: no email goes, staff call. */
  language: Lang | null;
  /** Whether cancelling it emails the patient. */
  will_email: boolean;
  /** How the patient will hear of it: `email`, `sms` (no email address, SMS agreed) or `call` (staff call; docs/decisions/043-sms-second-channel.md). */
  channel: PatientChannel;
  /** Who to call: null when the contact is gone or no key opens it. */
  patient: CalledPatient | null;
}

/** What staff need to call a patient: the block's dialog and its answer show it (no-store, staff only). */
export interface CalledPatient {
  first_name: string;
  last_name: string;
  phone: string;
  email?: string;
}

export function calledPatient(contact: ContactSecret | null): CalledPatient | null {
  if (!contact) return null;
  return { first_name: contact.firstName, last_name: contact.lastName, phone: contact.phone, ...(contact.email ? { email: contact.email } : {}) };
}

/** The block's days: `date` alone, or every day from `date` to `end_date` inclusive. */
export function daysOf(input: Pick<BlockedDateInput, 'date' | 'end_date'>): string[] {
  const days: string[] = [];
  for (let day = input.date; day <= (input.end_date ?? input.date); day = addDaysToDate(day, 1)) days.push(day);
  return days;
}

/**
 * The live bookings of [date, end_date] that the block covers: of its type
 * (or any type), the whole day, or an appointment [time, time + duration)
 * overlapping [start, end). `exceptBlock`: a block being edited.
 */
async function coveredBookings(db: Database, input: BlockedDateInput, keys: KeyRing | null, now: Date): Promise<CoveredBooking[]> {
  const overlap =
    input.start_time === null
      ? sql`true`
      : sql`extract(epoch from ${input.start_time}::time) / 60 < extract(epoch from b.appointment_time) / 60 + t.slot_duration_minutes
          and extract(epoch from b.appointment_time) < extract(epoch from ${input.end_time}::time)`;
  const result = await db.execute(sql`
    select b.id, b.reference, b.appointment_date::text as appointment_date, b.appointment_time::text as appointment_time, t.name as type_name, t.name_en as type_name_en
    from booked_slots b join appointment_types t on t.id = b.appointment_type_id
    where b.appointment_date between ${input.date}::date and ${input.end_date ?? input.date}::date
      and (${input.appointment_type_id}::uuid is null or b.appointment_type_id = ${input.appointment_type_id}::uuid)
      and ${overlap}
    order by b.appointment_date, b.appointment_time, t.name`);
  const rows = rowsOf<Omit<CoveredBooking, 'begun' | 'language' | 'will_email' | 'channel' | 'patient'>>(result);
  const covered: CoveredBooking[] = [];
  for (const b of rows) {
    const time = hhmm(b.appointment_time);
    // Only the language leaves the contact: the dialog names the language the email is written in.
    // A phone booking with an email is emailed like an online one (docs/decisions/025-patient-details-for-staff.md).
    const contact = openContact(await sealedContact(db, b.id), b.id, keys);
    covered.push({
      ...b,
      appointment_time: time,
      begun: hasBegun(b.appointment_date, time, now),
      language: contact?.email ? contact.language : null,
      will_email: Boolean(contact?.email),
      channel: contact?.email ? 'email' : keys && smsNumberOf(contact) ? 'sms' : 'call',
      patient: calledPatient(contact),
    });
  }
  return covered;
}

export interface BlockOutcome {
  blocked: BlockedDateDto[];
  /** Bookings cancelled with the block, their emails queued. */
  cancelled: PracticeCancelled[];
  /** Covered bookings that had begun: kept, whatever `bookings` said. */
  kept: CoveredBooking[];
}

/**
 * Inside the audit's transaction: locks, looks, refuses (409 has-bookings)
 * or saves the block's rows (one per day, sharing a range id when it is a
 * range; `replace`: the row being edited) and cancels what it covers when
 * asked. Each cancellation gets its own audit row.
 */
export async function saveBlock(
  tx: Database,
  actor: AuditActor,
  input: BlockedDateInput,
  keys: KeyRing | null,
  options: { replace?: string; now?: Date; message?: string; confirm?: boolean } = {},
): Promise<BlockOutcome> {
  const now = options.now ?? new Date();
  await tx.execute(sql`lock table booked_slots in share row exclusive mode`);
  const covered = await coveredBookings(tx, input, keys, now);
  if (covered.length > 0 && !input.bookings) {
    throw new AppError('has-bookings', `This block covers ${covered.length} booked appointment(s): cancel them or keep them.`, undefined, {
      // The English name is only for the message check below: the answer stays as it was.
      extra: { bookings: covered.map(({ type_name_en: _en, ...shown }) => shown) },
    });
  }
  // The message to the patients whose bookings it cancels must not repeat their type's name unless staff confirm (docs/decisions/041).
  if (input.bookings === 'cancel') {
    refuseUnconfirmedDetails(options.message, covered.filter((b) => !b.begun).flatMap(typeTerms), options.confirm);
  }
  const days = daysOf(input);
  const rangeId = input.end_date ? randomUUID() : null;
  const columns = (date: string) => ({
    date,
    reason: input.reason,
    appointmentTypeId: input.appointment_type_id,
    startTime: input.start_time,
    endTime: input.end_time,
    rangeId,
  });
  const ids = await withTypeReference(async () => {
    if (options.replace) {
      const rows = await tx
        .update(blockedDates)
        .set(columns(input.date))
        .where(sql`${blockedDates.id} = ${options.replace}::uuid`)
        .returning({ id: blockedDates.id });
      if (rows.length === 0) throw new AppError('not-found', 'Unknown blocked date.');
      return rows.map((r) => r.id);
    }
    const rows = await tx.insert(blockedDates).values(days.map(columns)).returning({ id: blockedDates.id });
    return rows.map((r) => r.id);
  });
  const cancelled: PracticeCancelled[] = [];
  const kept = covered.filter((b) => b.begun);
  if (input.bookings === 'cancel') {
    for (const booking of covered) {
      // Begun or passed: the patient is here or has been; a block never cancels that.
      if (booking.begun) continue;
      const live = await findById(tx, booking.id, true);
      if (!live) continue;
      cancelled.push(await cancelLockedAsPractice(tx, live, keys, options.message, now));
      await recordAudit(tx, actor, { action: 'cancel', entity: 'booked-slot', entityId: booking.id, label: auditLabel.booking(booking) });
    }
  }
  const blocked = await Promise.all(ids.map((id) => blockedDateById(tx, id)));
  return { blocked: blocked.sort((a, b) => a.date.localeCompare(b.date)), cancelled, kept };
}

/**
/**
 * The answer's `cancelled`: per booking whether an email went out, and who
 * to call where none did (docs/decisions/025, 035).
 */
export const cancelledRows = (cancelled: PracticeCancelled[]) =>
  cancelled.map((c) => ({
    reference: c.booking.reference,
    patient_notified: c.emailed,
    channel: c.channel,
    ...(!c.emailed && c.contact?.phone ? { patient_phone: c.contact.phone } : {}),
    patient: calledPatient(c.contact),
  }));

/** The answer's `kept`: the begun bookings a block left in place. */
export const keptBookings = (kept: CoveredBooking[]) =>
  kept.map(({ id, reference, appointment_date, appointment_time, type_name }) => ({ id, reference, appointment_date, appointment_time, type_name }));

/** The practice's message to the patients whose bookings a block cancels (sent as typed, never audited or logged). */
export const messageOf = (input: BlockedDateInput) => (input.bookings === 'cancel' ? input.message : undefined);

/** saveBlock's message options: the message and whether staff confirmed that it names the type. */
export const messageOptions = (input: BlockedDateInput) => ({ message: messageOf(input), confirm: input.confirm });
