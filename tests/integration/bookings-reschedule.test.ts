/**
 * POST /api/bookings/reschedule (docs/architecture.md HTTP API) through the real
 * handlers on PGlite and on a real Postgres: the move takes the new seat and
 * frees the old in one transaction, the link keeps working, the reminder
 * follows, the practice is told; and on the real Postgres, N moves and new
 * bookings racing for a capacity-1 time: exactly one wins, nothing lost.
 */
import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import reschedule from '../../netlify/functions/bookings-reschedule';
import { blockedDates, bookedSlots, rateLimits, appointmentContacts as reminders } from '../../db/schema';
import { insertBooking } from '../../src/server/bookings/slot-sql.server';
import { hashToken, newCancellationToken } from '../../src/server/bookings/shared.server';
import { reminderSendAt } from '../../src/lib/reminder-time';
import { call, settled } from '../helpers/http';
import { readOutbox } from '../helpers/eml';
import { icsOf } from '../helpers/ics';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { captureConsole } from '../helpers/console-capture';
import { testPatient } from '../helpers/patient';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin: the whole week lies ahead.
const NOW = new Date('2030-01-07T07:00:00+01:00');

const patient = { ...testPatient, email: 'erika.reschedule@example.org' };

describe.each(databaseKinds)('reschedule API on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'reschedule-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example', DATABASE_POOL_SIZE: '20' } });
  let checkUp: string;
  let selfPay: string;
  const logs: string[] = [];

  beforeAll(async () => {
    checkUp = (
      await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 })
    ).id;
    selfPay = (
      await addBookableType(t.db, {
        name: 'Reiseimpfung',
        nameEn: 'Travel vaccination',
        description: 'IGeL',
        maxAdvanceDays: 14,
        slotDurationMinutes: 20,
        maxSlotsPerTime: 1,
        priceCents: 3500,
      })
    ).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const book = (overrides: Record<string, unknown> = {}) =>
    call(bookings, '/api/bookings', {
      method: 'POST',
      body: { appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '09:00', ...patient, ...overrides },
    });
  async function bookAndGetToken(overrides: Record<string, unknown> = {}) {
    const res = await book(overrides);
    expect(res.status).toBe(201);
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === patient.email)!;
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    return {
      token: /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!,
      id: res.json.booking.id as string,
      reference: res.json.booking.reference as string,
    };
  }
  const move = (body: Record<string, unknown>, ip?: string) => call(reschedule, '/api/bookings/reschedule', { method: 'POST', body, ip });
  const freeTimes = async (typeId: string, date: string) => {
    const res = await call(availability, '/api/availability', { query: { type: typeId, from: date, to: date } });
    return (res.json.days[0]?.times ?? []) as string[];
  };
  const rows = () => t.db.select().from(bookedSlots);

  it('moves the booking: old time freed, new time taken, same row, link and reference, reminder moved, practice told', async () => {
    const { token, id, reference } = await bookAndGetToken({ reminder: true });
    expect(reference).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(await freeTimes(checkUp, '2030-01-08')).not.toContain('09:00');
    const [before] = await t.db.select().from(reminders);
    expect(before!.remindAt!.toISOString()).toBe(reminderSendAt('2030-01-08', '09:00').toISOString());

    const res = await move({ token, appointment_date: '2030-01-10', appointment_time: '11:20', language: 'en' });
    expect(res.status).toBe(200);
    expect(res.json.booking).toEqual({ id, appointment_type_id: checkUp, appointment_date: '2030-01-10', appointment_time: '11:20', reference, sequence: 1 });
    expect(res.json.email).toEqual({ success: true });

    // The old time is free again, the new one is gone.
    expect(await freeTimes(checkUp, '2030-01-08')).toContain('09:00');
    expect(await freeTimes(checkUp, '2030-01-10')).not.toContain('11:20');
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      id,
      reference,
      source: 'online',
      appointmentDate: '2030-01-10',
      appointmentTime: '11:20:00',
      seat: 1,
      cancellationTokenHash: hashToken(token),
    });

    // The reminder follows the new time.
    const [after] = await t.db.select().from(reminders);
    expect(after!.bookingId).toBe(id);
    expect(after!.remindAt!.toISOString()).toBe(reminderSendAt('2030-01-10', '11:20').toISOString());

    // The emailed link keeps working, now for the new time.
    const shown = await call(cancel, '/api/bookings/cancel', { query: { token } });
    expect(shown.status).toBe(200);
    expect(shown.json).toMatchObject({ appointment_date: '2030-01-10', appointment_time: '11:20', reference });

    // The practice's notice, in German: where the move came from (the patient's link), reference, type,
    // the new and the former time; no patient data.
    const mails = await readOutbox(t.outbox);
    expect(mails).toHaveLength(2);
    const notice = mails.find((m) => m.headers.to === 'team@praxis.example')!;
    expect(notice.headers.to).toBe('team@praxis.example');
    expect(notice.subject).toBe('Termin online verschoben: Check-up, jetzt am 10.01.2030 um 11:20 Uhr');
    expect(notice.text).toMatch(/^Ein Termin wurde über den Link in der Bestätigungs-E-Mail verschoben\./);
    expect(notice.text).toContain(`Buchungsnummer: ${reference}`);
    expect(notice.text).toContain('Neuer Termin: Donnerstag, 10. Januar 2030, 11:20 Uhr');
    expect(notice.text).toContain('Bisheriger Termin: Dienstag, 8. Januar 2030, 09:00 Uhr');
    expect(notice.text).toContain('Verschoben über: den Link in der Bestätigungs-E-Mail');
    expect(notice.text).toContain('Sprache der E-Mails: Englisch');
    expect(notice.raw).not.toContain(patient.email);
    expect(notice.raw).not.toContain('Mustermann');

    // The patient's confirmation, in the booking's language (German), from the sealed contact: the new
    // time, the old one, the link, and an .ics replacing the entry (same UID, higher SEQUENCE).
    const confirmation = mails.find((m) => m.headers.to === patient.email)!;
    expect(confirmation.subject).toBe('Terminänderung bestätigt: Check-up jetzt am 10.01.2030 um 11:20');
    expect(confirmation.text).toContain('Guten Tag Erika Mustermann,');
    expect(confirmation.text).toContain('Neues Datum: Donnerstag, 10. Januar 2030');
    expect(confirmation.text).toContain('Bisherige Uhrzeit: 09:00 Uhr');
    expect(confirmation.text).toContain(`https://praxis.example/termin/absagen?token=${token}`);
    expect(confirmation.text).toMatch(/verschieben oder absagen/);
    expect(icsOf(confirmation)).toMatchObject({ method: 'REQUEST', uid: `${id}@praxis.example`, sequence: 1, status: 'CONFIRMED', start: '2030-01-10T11:20' });

    // And it can be moved again, or cancelled, with the same link; the cancellation's .ics removes the entry.
    expect((await move({ token, appointment_date: '2030-01-11', appointment_time: '08:20' })).status).toBe(200);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } })).status).toBe(200);
    const cancelled = (await readOutbox(t.outbox)).find((m) => m.headers.to === patient.email)!;
    expect(cancelled.subject).toBe('Absage bestätigt: Check-up am 11.01.2030 um 08:20');
    expect(icsOf(cancelled)).toMatchObject({ method: 'CANCEL', uid: `${id}@praxis.example`, sequence: 3, status: 'CANCELLED' });
    expect(await rows()).toHaveLength(0);
    expect(await t.db.select().from(reminders)).toHaveLength(0);
  });

  it('404 for an unknown link, 410 cancelled-by-patient for a cancelled one; 400 naming the fields; nothing changes', async () => {
    const { token, reference } = await bookAndGetToken();
    const unknown = newCancellationToken();
    const res = await move({ token: unknown, appointment_date: '2030-01-10', appointment_time: '11:20' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');

    const bad = await move({ token: 'short', appointment_date: '2030-02-30', appointment_time: '9 Uhr', language: 'fr' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['appointment_date', 'appointment_time', 'language', 'token']);
    expect((await move({})).status).toBe(400);

    const [row] = await rows();
    expect(row).toMatchObject({ appointmentDate: '2030-01-08', appointmentTime: '09:00:00' });
    expect(await readOutbox(t.outbox)).toHaveLength(0);

    expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } })).status).toBe(200);
    // docs/decisions/029-wizard-keeps-its-place-cancel-asks-once.md: the move answers 410 with what the appointment was.
    const gone = await move({ token, appointment_date: '2030-01-10', appointment_time: '11:20' });
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toContain('application/problem+json');
    expect(gone.json).toMatchObject({
      type: 'cancelled-by-patient',
      appointment_date: '2030-01-08',
      appointment_time: '09:00',
      type_name: 'Check-up',
      type_name_en: 'Health check',
      reference,
    });
    expect(await rows()).toHaveLength(0);
  });

  it('409 slot-unavailable with its reason when the new time cannot be booked; the old time stays booked', async () => {
    const { token } = await bookAndGetToken();
    // Taken by someone else.
    expect((await book({ appointment_time: '10:00', email: 'other@example.org' })).status).toBe(201);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    await t.db.insert(blockedDates).values({ date: '2030-01-09', reason: 'Fortbildung' });
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ appointment_date: '2030-01-08', appointment_time: '10:00' }, /just been booked/],
      [{ appointment_date: '2030-01-09', appointment_time: '10:00' }, /cannot be booked/],
      [{ appointment_date: '2030-01-08', appointment_time: '10:10' }, /not a bookable start time/],
      [{ appointment_date: '2030-01-12', appointment_time: '10:00' }, /cannot be booked/], // Saturday: no window
      [{ appointment_date: '2030-01-07', appointment_time: '06:00' }, /.+/], // before opening, and passed
      [{ appointment_date: '2030-01-31', appointment_time: '10:00' }, /cannot be booked/], // beyond the advance limit
      [{ appointment_date: '2030-01-08', appointment_time: '09:00' }, /already the appointment's time/],
    ];
    for (const [when, reason] of cases) {
      const res = await move({ token, ...when });
      expect(res.status, JSON.stringify(when)).toBe(409);
      expect(res.json.type).toContain('slot-unavailable');
      expect(res.json.detail).toMatch(reason);
    }
    const mine = (await rows()).find((r) => r.cancellationTokenHash === hashToken(token));
    expect(mine).toMatchObject({ appointmentDate: '2030-01-08', appointmentTime: '09:00:00' });
    expect(await rows()).toHaveLength(2);
    expect(await readOutbox(t.outbox)).toHaveLength(0);
  });

  it('honours partial-day blocks like a new booking: an overlapping time is refused, one ending at the block moves', async () => {
    const { token } = await bookAndGetToken();
    // Thursday 10:10-11:00 blocked for every type: 09:40 (ends 10:00) is free, 10:00 (overlaps 10:10) and 10:40 are not.
    await t.db.insert(blockedDates).values({ date: '2030-01-10', startTime: '10:10', endTime: '11:00' });
    for (const time of ['10:00', '10:40']) {
      const res = await move({ token, appointment_date: '2030-01-10', appointment_time: time });
      expect(res.status, time).toBe(409);
      expect(res.json.type).toContain('slot-unavailable');
      expect(res.json.detail).toMatch(/cannot be booked/);
    }
    expect((await rows())[0]).toMatchObject({ appointmentDate: '2030-01-08', appointmentTime: '09:00:00' });
    expect((await move({ token, appointment_date: '2030-01-10', appointment_time: '09:40' })).status).toBe(200);
    expect((await rows())[0]).toMatchObject({ appointmentDate: '2030-01-10', appointmentTime: '09:40:00' });
  });

  it('409 too-late once the current appointment has begun', async () => {
    const { token } = await bookAndGetToken({ appointment_date: '2030-01-07', appointment_time: '09:00' });
    vi.setSystemTime(new Date('2030-01-07T09:00:00+01:00'));
    const res = await move({ token, appointment_date: '2030-01-10', appointment_time: '11:20' });
    expect(res.status).toBe(409);
    expect(res.json.type).toContain('too-late');
    expect((await rows())[0]).toMatchObject({ appointmentDate: '2030-01-07', appointmentTime: '09:00:00' });
  });

  it('a reschedule is not a new booking: it counts no booking or email limit (only the move limits, move-limits.test.ts)', async () => {
    const { token } = await bookAndGetToken();
    const bookingLimits = () => t.db.select().from(rateLimits).then((rows) => rows.filter((r) => !r.bucket.startsWith('move-')));
    const before = await bookingLimits();
    for (const time of ['10:00', '10:20', '10:40', '11:00', '11:20']) {
      expect((await move({ token, appointment_date: '2030-01-10', appointment_time: time })).status).toBe(200);
    }
    expect(await bookingLimits()).toEqual(before);
  });

  it('a self-pay type\'s price is in the patient confirmation and the practice notification; English emails carry the English sender name', async () => {
    const res = await book({ appointment_type_id: selfPay, language: 'en' });
    expect(res.status).toBe(201);
    const mails = await readOutbox(t.outbox);
    const confirmation = mails.find((m) => m.headers.to === patient.email)!;
    expect(confirmation.text).toContain('Price (self-pay service): €35.00');
    expect(confirmation.html).toContain('€35.00');
    // The English email carries the practice's English name; the address stays MAIL_FROM's.
    expect(confirmation.addresses.from).toEqual([{ name: 'Family Practice Düsseldorf', address: 'praxis@localhost' }]);
    const notice = mails.find((m) => m.headers.to === 'team@praxis.example')!;
    expect(notice.text).toContain('Preis (Selbstzahlerleistung): 35,00');
    // A German booking keeps MAIL_FROM's display name; a type without a price shows none.
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    expect((await book({ appointment_time: '11:00' })).status).toBe(201);
    const german = (await readOutbox(t.outbox)).find((m) => m.headers.to === patient.email)!;
    expect(german.addresses.from).toEqual([{ name: 'Hausarztpraxis Düsseldorf', address: 'praxis@localhost' }]);
    expect(german.text).not.toContain('Preis');
  });

  it('a race for a capacity-1 time: of N moves and new bookings exactly one wins, nothing lost or duplicated', async () => {
    const N = 24;
    // N bookings at distinct times of Tuesday, each with its own link.
    const times = Array.from({ length: 16 }, (_, i) => {
      const m = 8 * 60 + 20 + i * 20;
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    });
    const tokens: string[] = [];
    for (let i = 0; i < N; i++) {
      const token = newCancellationToken();
      const date = i < 16 ? '2030-01-08' : '2030-01-09';
      const result = await insertBooking(t.db, { typeId: checkUp, date, time: times[i % 16]!, tokenHash: hashToken(token) });
      expect('booked' in result).toBe(true);
      tokens.push(token);
    }
    const target = { appointment_date: '2030-01-10', appointment_time: '09:00' };
    const moves = tokens.map((token, i) => move({ token, ...target }, `203.0.113.${i + 1}`));
    const newBookings = Array.from({ length: 8 }, (_, i) =>
      call(bookings, '/api/bookings', {
        method: 'POST',
        ip: `198.51.100.${i + 1}`,
        body: { appointment_type_id: checkUp, ...target, ...patient, email: `racer${i}@example.org` },
      }),
    );
    const results = await Promise.all([...moves, ...newBookings]);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N + 8 - 1);

    const all = await rows();
    const atTarget = all.filter((r) => r.appointmentDate === '2030-01-10' && r.appointmentTime === '09:00:00');
    expect(atTarget).toHaveLength(1);
    // No booking lost or duplicated: every link still finds exactly one row.
    const moved = results.slice(0, N).findIndex((r) => r.status === 200);
    expect(all).toHaveLength(N + (moved === -1 ? 1 : 0));
    for (const token of tokens) {
      expect((await t.db.select().from(bookedSlots).where(eq(bookedSlots.cancellationTokenHash, hashToken(token))))).toHaveLength(1);
    }
    if (moved !== -1) expect(atTarget[0]!.cancellationTokenHash).toBe(hashToken(tokens[moved]!));
  });
});
