/**
 * Public holidays (NRW) through the real handlers, on both drivers, with a
 * frozen clock (docs/decisions/039-public-holidays.md):
 * - online availability leaves out every closed day and names it in
 *   `holidays` (Christmas Day 2026, offered ten times before; 1 January
 *   across the year end; Easter-dependent days of the next year; All
 *   Saints' Day, but not Reformationstag);
 * - an online booking and a patient's move onto a closed day: 409
 *   slot-unavailable `reason: "holiday"`, nothing stored;
 * - the settings (back office): open a holiday (an emergency service),
 *   close 24 and 31 December; audited; a date that is no holiday is 400
 *   naming `holidays.opened` and changes nothing;
 * - staff book and move onto a closed day only after the warning: 409
 *   with the day's German name, then `confirm_holiday: true`;
 * - the booking statement re-checks the settings itself;
 * - the staff views' list (GET /api/admin/holidays);
 * - the waitlist is offered no closed day, and learns when a holiday opens.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import availability from '../../netlify/functions/availability';
import staffAvailability from '../../netlify/functions/admin-availability';
import holidaysFn from '../../netlify/functions/admin-holidays';
import settingsFn from '../../netlify/functions/admin-settings';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookings from '../../netlify/functions/bookings';
import reschedule from '../../netlify/functions/bookings-reschedule';
import waitlist from '../../netlify/functions/waitlist';
import { auditLog, bookedSlots, practiceSettings, rateLimits, waitlistEntries, waitlistFreedTimes, waitlistOffers } from '../../db/schema';
import { insertBooking } from '../../src/server/bookings/slot-sql.server';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest, testCaller } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Friday 18 December 2026, 08:00 in Berlin: Christmas and the year's end lie ahead.
const NOW = new Date('2026-12-18T08:00:00+01:00');
const dates = (res: { json: { days: Array<{ date: string }> } }) => res.json.days.map((d) => d.date);

describe.each(databaseKinds)('public holidays on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'holidays-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  let checkUp: string;
  /** Open every day of the week (Sunday too), bookable a year ahead: holidays show on any weekday. */
  let everyDay: string;
  const logs: string[] = [];
  let people = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 30, slotDurationMinutes: 20, maxSlotsPerTime: 1 })).id;
    everyDay = (
      await addBookableType(t.db, { name: 'Impfung', description: 'Impfen', maxAdvanceDays: 365, slotDurationMinutes: 30, maxSlotsPerTime: 1 }, { days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '11:00' })
    ).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(waitlistOffers);
    await t.db.delete(waitlistEntries);
    await t.db.delete(waitlistFreedTimes);
    await t.db.delete(bookedSlots);
    await t.db.delete(practiceSettings);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  const get = (type: string, from: string, to: string) => call(availability, '/api/availability', { query: { type, from, to } });
  const book = (date: string, time: string, type = checkUp) =>
    call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(type, date, time, { email: `patient-${++people}@example.org` }), ip: `10.2.0.${people % 250}` });
  const settings = (holidays: Record<string, unknown>) => api(settingsFn, '/api/admin/settings', { method: 'PUT', body: { holidays } });
  const staffBook = (date: string, time: string, extra: Record<string, unknown> = {}) =>
    api(bookedCollection, '/api/admin/booked-slots', { method: 'POST', body: { appointment_type_id: checkUp, appointment_date: date, appointment_time: time, ...testCaller, ...extra } });
  const count = async () => (await t.db.select().from(bookedSlots)).length;

  it('online availability leaves out Christmas Day and New Year, names them, and keeps 24 and 31 December', async () => {
    const res = await get(checkUp, '2026-12-18', '2027-01-08');
    expect(res.status).toBe(200);
    expect(dates(res)).toEqual([
      '2026-12-18', '2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24',
      // 25 December (a Friday: the defect offered ten times) and 1 January are closed.
      '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31',
      '2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07', '2027-01-08',
    ]);
    // Every field of before stays; `holidays` is added: the closed days, with both names.
    expect(Object.keys(res.json).sort()).toEqual(['days', 'holidays', 'sms', 'timezone', 'type']);
    expect(res.json.holidays).toEqual([
      { date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true },
      { date: '2026-12-26', name: '2. Weihnachtstag', name_en: 'Boxing Day', statutory: true },
      { date: '2027-01-01', name: 'Neujahrstag', name_en: "New Year's Day", statutory: true },
    ]);
  });

  it('next year: Karfreitag, Ostermontag, Christi Himmelfahrt, Pfingstmontag, Fronleichnam and Allerheiligen are closed; Reformationstag is not (NRW)', async () => {
    const spring = await get(everyDay, '2027-03-24', '2027-05-24');
    const closed = ['2027-03-26', '2027-03-29', '2027-05-01', '2027-05-06', '2027-05-17'];
    for (const date of closed) expect(dates(spring), date).not.toContain(date);
    expect(dates(spring)).toContain('2027-03-28'); // Easter Sunday: a Sunday, not a holiday in NRW
    expect(spring.json.holidays.map((h: { name: string }) => h.name)).toEqual(['Karfreitag', 'Ostermontag', 'Tag der Arbeit', 'Christi Himmelfahrt', 'Pfingstmontag']);
    const june = await get(everyDay, '2027-05-25', '2027-06-01');
    expect(dates(june)).not.toContain('2027-05-27');
    expect(june.json.holidays).toEqual([{ date: '2027-05-27', name: 'Fronleichnam', name_en: 'Corpus Christi', statutory: true }]);
    const autumn = await get(everyDay, '2027-10-29', '2027-11-02');
    expect(dates(autumn)).toEqual(['2027-10-29', '2027-10-30', '2027-10-31', '2027-11-02']);
    expect(autumn.json.holidays.map((h: { name: string }) => h.name)).toEqual(['Allerheiligen']);
  });

  it('an online booking and a patient\'s move onto a holiday: 409 reason holiday, nothing stored or moved', async () => {
    const refused = await book('2026-12-25', '09:00');
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ type: 'slot-unavailable', reason: 'holiday', holiday: { date: '2026-12-25', name: '1. Weihnachtstag', statutory: true } });
    expect(await count()).toBe(0);
    const booked = await book('2026-12-23', '09:00');
    expect(booked.status).toBe(201);
    await settled();
    const mail = (await readOutbox(t.outbox)).find((m) => m.text.includes('token='))!;
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const moved = await call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token, appointment_date: '2027-01-01', appointment_time: '09:00', language: 'de' } });
    expect(moved.status).toBe(409);
    expect(moved.json.reason).toBe('holiday');
    const [row] = await t.db.select().from(bookedSlots);
    expect(row).toMatchObject({ appointmentDate: '2026-12-23', appointmentTime: '09:00:00' });
  });

  it('the settings open a holiday (an emergency service) and close 24/31 December: availability follows, each save audited', async () => {
    const before = await api(settingsFn, '/api/admin/settings');
    expect(before.json.holidays).toEqual({ opened: [], close_dec_24: false, close_dec_31: false });

    const saved = await settings({ opened: ['2026-12-26'], close_dec_24: true, close_dec_31: true });
    expect(saved.status).toBe(200);
    expect(saved.json.holidays).toEqual({ opened: ['2026-12-26'], close_dec_24: true, close_dec_31: true });
    const res = await get(everyDay, '2026-12-23', '2027-01-02');
    expect(dates(res)).toEqual(['2026-12-23', '2026-12-26', '2026-12-27', '2026-12-28', '2026-12-29', '2026-12-30', '2027-01-02']);
    expect(res.json.holidays).toEqual([
      { date: '2026-12-24', name: 'Heiligabend', name_en: 'Christmas Eve', statutory: false },
      { date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true },
      { date: '2026-12-31', name: 'Silvester', name_en: "New Year's Eve", statutory: false },
      { date: '2027-01-01', name: 'Neujahrstag', name_en: "New Year's Day", statutory: true },
    ]);
    // The opened holiday books like any day; the closed 24 December does not.
    expect((await book('2026-12-26', '09:00', everyDay)).status).toBe(201);
    const eve = await book('2026-12-24', '09:00', everyDay);
    expect(eve.status).toBe(409);
    expect(eve.json).toMatchObject({ reason: 'holiday', holiday: { name: 'Heiligabend', statutory: false } });

    // A partial save keeps the rest: 31 December opens again, the rest stays.
    const partial = await settings({ close_dec_31: false });
    expect(partial.json.holidays).toEqual({ opened: ['2026-12-26'], close_dec_24: true, close_dec_31: false });
    expect(dates(await get(everyDay, '2026-12-31', '2026-12-31'))).toEqual(['2026-12-31']);

    const labels = (await t.db.select().from(auditLog)).map((a) => `${a.action} ${a.entity} ${a.label}`);
    expect(labels).toEqual([
      'update settings Feiertage: geöffnet 26.12.2026; 24.12. geschlossen, 31.12. geschlossen',
      'update settings Feiertage: geöffnet 26.12.2026; 24.12. geschlossen, 31.12. offen',
    ]);
  });

  it('only NRW holidays can be opened: anything else is 400 naming holidays.opened, and nothing changes', async () => {
    await settings({ close_dec_24: true });
    for (const opened of [['2026-12-23'], ['2026-10-31'], ['2026-12-24'], ['2026-02-30'], 'x']) {
      const res = await settings({ opened, close_dec_24: false });
      expect(res.status, JSON.stringify(opened)).toBe(400);
      expect(Object.keys(errorsOf(res))[0]).toMatch(/^holidays\.opened/);
    }
    expect(errorsOf(await settings({}))).toHaveProperty('holidays.opened');
    expect(errorsOf(await settings({ close_dec_24: 'ja' }))).toHaveProperty('holidays.close_dec_24');
    expect((await api(settingsFn, '/api/admin/settings')).json.holidays).toEqual({ opened: [], close_dec_24: true, close_dec_31: false });
    expect(await t.db.select().from(auditLog)).toHaveLength(1);
  });

  it('staff book a holiday only after the warning: 409 with its German name, then confirm_holiday', async () => {
    const staff = await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2026-12-24', to: '2026-12-28' } });
    // Staff see the holiday's times (they may book it after the warning) and which days are holidays.
    expect(dates(staff)).toEqual(['2026-12-24', '2026-12-25', '2026-12-28']);
    expect(staff.json.holidays).toEqual([
      { date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true, closed: true },
      { date: '2026-12-26', name: '2. Weihnachtstag', name_en: 'Boxing Day', statutory: true, closed: true },
    ]);

    const warned = await staffBook('2026-12-25', '09:00');
    expect(warned.status).toBe(409);
    expect(warned.json).toMatchObject({ type: 'slot-unavailable', reason: 'holiday', holiday: { date: '2026-12-25', name: '1. Weihnachtstag' } });
    expect(warned.json.detail).toBe('Am 25.12.2026 (1. Weihnachtstag) ist die Praxis geschlossen: gesetzlicher Feiertag. Buchen Sie trotzdem, bestätigen Sie es (confirm_holiday).');
    expect(await count()).toBe(0);
    expect(errorsOf(await staffBook('2026-12-25', '09:00', { confirm_holiday: 'yes' }))).toHaveProperty('confirm_holiday');

    const confirmed = await staffBook('2026-12-25', '09:00', { confirm_holiday: true });
    expect(confirmed.status).toBe(201);
    expect(confirmed.json).toMatchObject({ appointment_date: '2026-12-25', appointment_time: '09:00', source: 'phone' });
    // Confirming a holiday lifts nothing else: the time is full now.
    const full = await staffBook('2026-12-25', '09:00', { confirm_holiday: true });
    expect(full.json.reason).toBe('full');
    // An ordinary day needs no confirmation.
    expect((await staffBook('2026-12-28', '09:00')).status).toBe(201);

    // Moving onto a holiday asks the same; the booking stays where it was until confirmed.
    const id = (await staffBook('2026-12-23', '10:00')).json.id as string;
    const move = (extra: Record<string, unknown> = {}) =>
      api(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body: { appointment_date: '2027-01-01', appointment_time: '10:00', ...extra } });
    const warnedMove = await move();
    expect(warnedMove.status).toBe(409);
    expect(warnedMove.json).toMatchObject({ reason: 'holiday', holiday: { name: 'Neujahrstag' } });
    const [still] = await t.db.select().from(bookedSlots).where(sql`${bookedSlots.id} = ${id}`);
    expect(still!.appointmentDate).toBe('2026-12-23');
    const moved = await move({ confirm_holiday: true });
    expect(moved.status).toBe(200);
    expect(moved.json.booking).toMatchObject({ appointment_date: '2027-01-01', appointment_time: '10:00' });
  });

  it('the booking statement itself re-checks the settings: a holiday closed meanwhile refuses, opened meanwhile books', async () => {
    // As if the settings changed between the rules' read and the statement: the statement alone decides.
    const closed = await insertBooking(t.db, { typeId: checkUp, date: '2026-12-25', time: '09:00', tokenHash: 'a'.repeat(64) });
    expect(closed).toEqual({ rejected: 'holiday' });
    await settings({ opened: ['2026-12-25'], close_dec_31: true });
    const opened = await insertBooking(t.db, { typeId: checkUp, date: '2026-12-25', time: '09:00', tokenHash: 'b'.repeat(64) });
    expect('booked' in opened).toBe(true);
    expect(await insertBooking(t.db, { typeId: checkUp, date: '2026-12-31', time: '09:00', tokenHash: 'c'.repeat(64) })).toEqual({ rejected: 'holiday' });
    // Staff's confirmation is the statement's too.
    expect('booked' in (await insertBooking(t.db, { typeId: checkUp, date: '2026-12-31', time: '09:00', tokenHash: 'd'.repeat(64), source: 'phone', confirmHoliday: true }))).toBe(true);
    expect(await count()).toBe(2);
  });

  it('GET /api/admin/holidays: the holidays of a range with their German names and whether closed (staff views, settings page)', async () => {
    await settings({ opened: ['2026-12-26'], close_dec_31: true });
    const res = await api(holidaysFn, '/api/admin/holidays', { query: { from: '2026-12-20', to: '2027-01-06' } });
    expect(res.status).toBe(200);
    expect(res.json.map((h: { date: string; name: string; closed: boolean }) => `${h.date} ${h.name} ${h.closed ? 'geschlossen' : 'geöffnet'}`)).toEqual([
      '2026-12-25 1. Weihnachtstag geschlossen',
      '2026-12-26 2. Weihnachtstag geöffnet',
      '2026-12-31 Silvester geschlossen',
      '2027-01-01 Neujahrstag geschlossen',
    ]);
    expect(errorsOf(await api(holidaysFn, '/api/admin/holidays', { query: { from: '2026-12-20', to: '2027-12-21' } }))).toHaveProperty('to');
    expect((await call(holidaysFn, '/api/admin/holidays', { query: { from: '2026-12-20', to: '2027-01-06' } })).status).toBe(401);
  });

  it('the waitlist: joining shows no time on a holiday; opening the holiday frees its times for the entries waiting', async () => {
    const joined = await call(waitlist, '/api/waitlist', {
      method: 'POST',
      ip: '10.3.0.1',
      body: {
        appointment_type_id: checkUp,
        first_name: 'Wilma',
        last_name: 'Wartend',
        birth_date: '1970-02-03',
        email: 'wilma@example.org',
        phone: '0211 555 01 99',
        language: 'de',
        consent: true,
        from: '2026-12-25',
        to: '2026-12-28',
      },
    });
    expect(joined.status).toBe(201);
    expect(joined.json.free_times.map((f: { appointment_date: string }) => f.appointment_date)).toEqual(Array(6).fill('2026-12-28'));
    await settings({ opened: ['2026-12-25'] });
    await settled();
    const freed = await t.db.select().from(waitlistFreedTimes);
    expect(new Set(freed.map((f) => f.appointmentDate))).toEqual(new Set(['2026-12-25']));
    expect(freed).toHaveLength(16);
  });
});
