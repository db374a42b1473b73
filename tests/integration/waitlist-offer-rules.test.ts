/**
 * When the waitlist emails an offer (docs/decisions/038-waitlist-offers-for-freed-times.md),
 * through the real handlers on both drivers with a fake clock:
 * - only for a time that became free after the entry was made: a patient's
 *   booking and cancellation, a new time window, a raised capacity; never a
 *   time that was free all along (the join answers those, to take at once),
 *   and the email says "frei geworden";
 * - never for a time starting within 2 hours;
 * - only 07:00–20:00 Berlin: a time freed in the evening is offered by the
 *   morning's first job run, if it is still free;
 * - one open offer per entry, and at most 2 offer emails per entry per day;
 * - GET /api/waitlist/offer changes no row of any table, whatever it answers;
 * - GET /api/waitlist names the type, its weekdays and parts of the day
 *   with windows and the current booking.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import appointmentTypeItem from '../../netlify/functions/admin-appointment-type';
import timeSlots from '../../netlify/functions/admin-time-slots';
import bookings from '../../netlify/functions/bookings';
import cancelLink from '../../netlify/functions/bookings-cancel';
import sendReminders from '../../netlify/functions/send-reminders';
import waitlist from '../../netlify/functions/waitlist';
import waitlistLeave from '../../netlify/functions/waitlist-leave';
import waitlistOffer from '../../netlify/functions/waitlist-offer';
import { appointmentTypes, bookedSlots, cancelledBookings, rateLimits, waitlistEntries, waitlistFreedTimes, waitlistOffers } from '../../db/schema';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox, type ParsedEml } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { testPatient } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030 in Berlin (winter time, +01:00).
const at = (date: string, time: string) => new Date(`${date}T${time}:00+01:00`);
const MONDAY = '2030-01-07';
const TUESDAY = '2030-01-08';
const WEDNESDAY = '2030-01-09';
const THURSDAY = '2030-01-10';
const SATURDAY = '2030-01-12';
const NOW = at(MONDAY, '07:00');

describe.each(databaseKinds)('waitlist offer rules on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'waitlist-rules-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example' } });
  let admin: TestUser;
  // A fresh session at the clock's time: the tests move it by hours.
  const api = async (...args: Parameters<ReturnType<typeof asAdmin>>) => {
    admin = await createAdmin(t.db);
    return asAdmin(() => admin)(...args);
  };
  const logs: string[] = [];
  let people = 0;

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(waitlistOffers);
    await t.db.delete(waitlistEntries);
    await t.db.delete(waitlistFreedTimes);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(rateLimits);
    await t.db.delete(appointmentTypes);
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  /** A type with 09:00 and 09:20 on weekdays (or `days`, 0 = Sunday), one seat each unless said, bookable 14 days ahead. */
  const newType = async (overrides: Partial<typeof appointmentTypes.$inferInsert> = {}, days = [1, 2, 3, 4, 5]) =>
    (
      await addBookableType(
        t.db,
        { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1, ...overrides },
        { start: '09:00', end: '09:40', days },
      )
    ).id;

  async function book(typeId: string, date: string, time: string) {
    const email = `patient-${++people}@example.org`;
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: { ...testPatient, appointment_type_id: typeId, appointment_date: date, appointment_time: time, email },
      ip: `10.9.${people >> 8}.${people & 255}`,
    });
    expect(res.status).toBe(201);
    await settled();
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === email)!;
    return { id: res.json.booking.id as string, token: /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]! };
  }
  const join = async (typeId: string, wish: Record<string, unknown>) => {
    const email = `waiting-${++people}@example.org`;
    const res = await call(waitlist, '/api/waitlist', {
      method: 'POST',
      ip: `10.8.${people >> 8}.${people & 255}`,
      body: {
        appointment_type_id: typeId,
        first_name: 'Wilma',
        last_name: 'Wartend',
        birth_date: '1970-02-03',
        email,
        phone: '0211 555 01 99',
        language: 'de',
        consent: true,
        ...wish,
      },
    });
    expect(res.status).toBe(201);
    await settled();
    return { email, answer: res.json as { token: string; free_times: Array<{ appointment_date: string; appointment_time: string }> } };
  };
  const cancelAsStaff = async (id: string) => {
    expect((await api(cancelFn, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', params: { id }, body: {} })).status).toBe(200);
    await settled();
  };
  const cancelByPatient = async (token: string) => {
    expect((await call(cancelLink, '/api/bookings/cancel', { method: 'POST', body: { token } })).status).toBe(200);
    await settled();
  };
  const job = async () => {
    expect((await sendReminders()).status).toBe(200);
    await settled();
  };
  const offersTo = async (to: string) => (await readOutbox(t.outbox)).filter((m) => m.headers.to === to && /Früherer Termin frei/.test(m.subject));
  const offered = async (to: string) => (await offersTo(to)).map((m) => /am (\d{2})\.(\d{2})\.(\d{4}) um (\d{2}:\d{2})/.exec(m.subject)!).map((m) => `${m[3]}-${m[2]}-${m[1]} ${m[4]}`).sort();
  const offerToken = (mail: ParsedEml) => /offer=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;

  it('offers only times freed after the entry was made: a booking cancelled later is "frei geworden", a time free all along never is', async () => {
    const typeId = await newType();
    const { email, answer } = await join(typeId, { from: TUESDAY, to: WEDNESDAY });
    // Everything was free when the patient asked: shown to take at once, none emailed.
    expect(answer.free_times.map((f) => `${f.appointment_date} ${f.appointment_time}`)).toEqual([
      `${TUESDAY} 09:00`,
      `${TUESDAY} 09:20`,
      `${WEDNESDAY} 09:00`,
      `${WEDNESDAY} 09:20`,
    ]);
    await job();
    vi.setSystemTime(at(MONDAY, '10:00'));
    await job();
    expect(await offersTo(email)).toHaveLength(0);
    expect(await t.db.select().from(waitlistFreedTimes)).toHaveLength(0);

    // Booked by someone else, then cancelled: it became free after the patient asked.
    const other = await book(typeId, WEDNESDAY, '09:20');
    vi.setSystemTime(at(MONDAY, '10:05'));
    await cancelByPatient(other.token);
    expect(await offered(email)).toEqual([`${WEDNESDAY} 09:20`]);
    const [mail] = await offersTo(email);
    expect(mail!.text).toContain('frei geworden');
    expect(await t.db.select({ date: waitlistFreedTimes.appointmentDate, time: waitlistFreedTimes.appointmentTime }).from(waitlistFreedTimes)).toEqual([
      { date: WEDNESDAY, time: '09:20:00' },
    ]);
  });

  it('a raised capacity and a new time window free times; only those are offered', async () => {
    const typeId = await newType();
    await book(typeId, TUESDAY, '09:00');
    const { email, answer } = await join(typeId, { from: TUESDAY, to: SATURDAY, dayparts: ['morning'] });
    expect(answer.free_times).toHaveLength(6);
    // Two seats a time: Tuesday 09:00 (booked) became free; the times that had a seat left already did not.
    vi.setSystemTime(at(MONDAY, '08:00'));
    const raised = await api(appointmentTypeItem, `/api/admin/appointment-types/${typeId}`, {
      method: 'PUT',
      params: { id: typeId },
      body: { name: 'Check-up', name_en: 'Health check', description: 'Vorsorge', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 2, price_cents: null, online_bookable: true },
    });
    expect(raised.status).toBe(200);
    await settled();
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`]);
    // Taken by someone else: the offer is no longer open.
    await book(typeId, TUESDAY, '09:00');
    // Saturdays from now on: its times became free.
    vi.setSystemTime(at(MONDAY, '09:00'));
    const window = await api(timeSlots, '/api/admin/time-slots', { method: 'POST', body: { appointment_type_id: typeId, day_of_week: 6, start_time: '09:00', end_time: '09:20' } });
    expect(window.status).toBe(201);
    await settled();
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`, `${SATURDAY} 09:00`].sort());
  });

  it('no offer for a time starting within 2 hours', async () => {
    vi.setSystemTime(at(MONDAY, '07:30'));
    const typeId = await newType();
    const monday = await book(typeId, MONDAY, '09:20');
    const tuesday = await book(typeId, TUESDAY, '09:00');
    const { email } = await join(typeId, { from: MONDAY, to: TUESDAY, dayparts: ['morning'] });
    vi.setSystemTime(at(MONDAY, '07:31'));
    // 09:20 today is 1 h 49 min away.
    await cancelAsStaff(monday.id);
    await job();
    expect(await offersTo(email)).toHaveLength(0);
    await cancelAsStaff(tuesday.id);
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`]);
  });

  it('offers go out 07:00–20:00 Berlin only: a time freed at night is offered by the first job run from 07:00 if still free', async () => {
    vi.setSystemTime(at(MONDAY, '19:00'));
    const typeId = await newType();
    const tuesday = await book(typeId, TUESDAY, '09:00');
    const wednesday = await book(typeId, WEDNESDAY, '09:00');
    const a = await join(typeId, { from: TUESDAY, to: TUESDAY, dayparts: ['morning'] });
    const b = await join(typeId, { from: WEDNESDAY, to: WEDNESDAY, dayparts: ['morning'] });
    vi.setSystemTime(at(MONDAY, '20:00'));
    await cancelAsStaff(tuesday.id);
    await cancelAsStaff(wednesday.id);
    vi.setSystemTime(at(MONDAY, '23:30'));
    await job();
    // Wednesday's time is taken again overnight: nothing left to offer B in the morning.
    await book(typeId, WEDNESDAY, '09:00');
    vi.setSystemTime(at(TUESDAY, '06:59'));
    await job();
    expect(await offersTo(a.email)).toHaveLength(0);
    vi.setSystemTime(at(TUESDAY, '07:00'));
    await job();
    // Exactly two hours ahead: still offered.
    expect(await offered(a.email)).toEqual([`${TUESDAY} 09:00`]);
    expect(await offersTo(b.email)).toHaveLength(0);
  });

  it('outside production WAITLIST_OFFERS_ANY_HOUR=true lifts the hours (the browser tests run at any time)', async () => {
    vi.setSystemTime(at(MONDAY, '22:00'));
    const typeId = await newType();
    const tuesday = await book(typeId, TUESDAY, '09:00');
    const { email } = await join(typeId, { from: TUESDAY, to: TUESDAY, dayparts: ['morning'] });
    vi.stubEnv('WAITLIST_OFFERS_ANY_HOUR', 'true');
    try {
      await cancelAsStaff(tuesday.id);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`]);
  });

  it('one open offer per entry, and at most 2 offer emails per entry per Berlin day', async () => {
    const typeId = await newType();
    const held = [await book(typeId, TUESDAY, '09:00'), await book(typeId, WEDNESDAY, '09:00'), await book(typeId, THURSDAY, '09:00')];
    const { email } = await join(typeId, { from: TUESDAY, to: THURSDAY, dayparts: ['morning'] });
    vi.setSystemTime(at(MONDAY, '08:00'));
    await cancelAsStaff(held[0]!.id);
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`]);
    // Tuesday's offer is still open: Wednesday waits.
    await cancelAsStaff(held[1]!.id);
    await job();
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`]);
    // Someone books Tuesday: the offer is no longer open, Wednesday goes out (the second today).
    await book(typeId, TUESDAY, '09:00');
    await job();
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`, `${WEDNESDAY} 09:00`]);
    await book(typeId, WEDNESDAY, '09:00');
    await cancelAsStaff(held[2]!.id);
    vi.setSystemTime(at(MONDAY, '19:59'));
    await job();
    expect(await offersTo(email)).toHaveLength(2);
    // The next Berlin day: the third.
    vi.setSystemTime(at(TUESDAY, '07:00'));
    await job();
    expect(await offered(email)).toEqual([`${TUESDAY} 09:00`, `${WEDNESDAY} 09:00`, `${THURSDAY} 09:00`]);
  });

  it('GET /api/waitlist/offer changes no row of any table: open, taken (with the next time), taken by you, expired, unknown', async () => {
    const typeId = await newType();
    const held = await book(typeId, TUESDAY, '09:00');
    const a = await join(typeId, { from: TUESDAY, to: WEDNESDAY, dayparts: ['morning'] });
    const b = await join(typeId, { from: TUESDAY, to: WEDNESDAY, dayparts: ['morning'] });
    await cancelAsStaff(held.id);
    const [offerA] = await offersTo(a.email);
    const [offerB] = await offersTo(b.email);

    /** Every row of every table in the public schema. */
    const everything = async () => {
      const tables = (await t.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`)) as unknown as {
        rows: Array<{ table_name: string }>;
      };
      const all: Record<string, unknown[]> = {};
      for (const { table_name } of tables.rows) {
        const rows = (await t.db.execute(sql.raw(`select * from "${table_name}"`))) as unknown as { rows: unknown[] };
        all[table_name] = rows.rows.map((r) => JSON.stringify(r)).sort();
      }
      return all;
    };
    const show = async (token: string) => {
      const before = await everything();
      const res = await call(waitlistOffer, '/api/waitlist/offer', { query: { token } });
      await settled();
      expect(await everything()).toEqual(before);
      return res;
    };

    expect((await everything()).waitlist_offers).toHaveLength(2);
    expect((await show(offerToken(offerA!))).status).toBe(200);
    expect((await call(waitlistOffer, '/api/waitlist/offer', { method: 'POST', body: { token: offerToken(offerA!) } })).status).toBe(200);
    await settled();
    const yours = await show(offerToken(offerA!));
    expect(yours.json).toMatchObject({ taken_by_you: true, appointment_date: TUESDAY, appointment_time: '09:00' });
    // Taken: the next fitting free time, computed, no offer made for it; again and again.
    for (let i = 0; i < 3; i++) {
      const taken = await show(offerToken(offerB!));
      expect(taken.status).toBe(409);
      expect(taken.json.next).toEqual({ appointment_date: TUESDAY, appointment_time: '09:20' });
    }
    expect(await t.db.select().from(waitlistOffers)).toHaveLength(2);
    expect((await call(waitlistLeave, '/api/waitlist/leave', { method: 'POST', body: { token: offerToken(offerB!) } })).status).toBe(204);
    expect((await show(offerToken(offerB!))).status).toBe(410);
    expect((await show('Z'.repeat(43))).status).toBe(404);
  });

  it('GET /api/waitlist names the type, its weekdays and parts of the day with windows and the current booking', async () => {
    const typeId = await newType({}, [1, 3, 5]);
    const booked = await book(typeId, '2030-01-11', '09:20');
    // The database's own clock stamped the row: put it at the test's "now" (the success screen's 30 minutes).
    await t.db.update(bookedSlots).set({ createdAt: NOW }).where(sql`${bookedSlots.id} = ${booked.id}`);
    const byType = await call(waitlist, '/api/waitlist', { query: { type: typeId } });
    expect(byType.status).toBe(200);
    expect(byType.json).toEqual({
      appointment_type_id: typeId,
      type_name: 'Check-up',
      type_name_en: 'Health check',
      weekdays: [1, 3, 5],
      // 09:00 and 09:20 only: mornings (docs/decisions/039-public-holidays.md, waitlist parts of the day).
      dayparts: ['morning'],
      dayparts_by_weekday: { 1: ['morning'], 3: ['morning'], 5: ['morning'] },
      last_date: '2030-01-21',
      current: null,
      // Whether the page may offer "Angebote auch per SMS" (docs/decisions/043-sms-second-channel.md).
      sms: true,
    });
    const byLink = await call(waitlist, '/api/waitlist', { query: { token: booked.token } });
    expect(byLink.json).toMatchObject({ weekdays: [1, 3, 5], current: { date: '2030-01-11', time: '09:20' } });
    const byId = await call(waitlist, '/api/waitlist', { query: { booking: booked.id } });
    expect(byId.json).toMatchObject({ current: { date: '2030-01-11', time: '09:20' } });
    expect((await call(waitlist, '/api/waitlist', { query: { token: 'Y'.repeat(43) } })).status).toBe(404);
    expect((await call(waitlist, '/api/waitlist', { query: { type: 'nope' } })).status).toBe(400);
    expect((await call(waitlist, '/api/waitlist', { query: { type: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
  });
});
