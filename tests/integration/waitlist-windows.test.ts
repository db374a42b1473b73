/**
 * The waitlist asks only for what the type can offer
 * (docs/decisions/039-public-holidays.md, docs/decisions/032-waitlist.md),
 * through the real handlers on both drivers, with a frozen clock:
 * - GET /api/waitlist names the parts of the day in which the type has
 *   start times, per weekday, so the form offers only those;
 * - joining with a weekday or part of the day without start times is 400
 *   naming the field (a wish no time could ever meet), and stores nothing;
 * - the week view's counts count an entry only on days whose windows hold
 *   a time that fits it: no weekend without windows, no afternoon-only
 *   wish on a morning-only day, no public holiday.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import staffCounts from '../../netlify/functions/admin-waitlist-counts';
import waitlist from '../../netlify/functions/waitlist';
import { appointmentTimeSlots, rateLimits, waitlistEntries } from '../../db/schema';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

describe.each(databaseKinds)('waitlist only where the type has windows, on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'waitlist-windows-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  /** Mornings Monday to Friday (09:00–10:00), and Thursday afternoons (15:00–16:00) too. */
  let consultation: string;
  /** Mornings only (08:00–09:00), Monday to Friday. */
  let mornings: string;
  const logs: string[] = [];
  let people = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    consultation = (
      await addBookableType(t.db, { name: 'Sprechstunde', description: 'Beratung', maxAdvanceDays: 120, slotDurationMinutes: 20, maxSlotsPerTime: 1 }, { start: '09:00', end: '10:00' })
    ).id;
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: consultation, dayOfWeek: 4, startTime: '15:00', endTime: '16:00' });
    mornings = (await addBookableType(t.db, { name: 'Blutabnahme', description: 'Labor', maxAdvanceDays: 30, slotDurationMinutes: 10, maxSlotsPerTime: 1 }, { start: '08:00', end: '09:00' })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(waitlistEntries);
    await t.db.delete(rateLimits);
    captureConsole(logs);
  });

  const join = (typeId: string, wish: Record<string, unknown>) =>
    call(waitlist, '/api/waitlist', {
      method: 'POST',
      ip: `10.4.0.${++people % 250}`,
      body: {
        appointment_type_id: typeId,
        first_name: 'Wilma',
        last_name: 'Wartend',
        birth_date: '1970-02-03',
        email: `wartend-${people}@example.org`,
        phone: '0211 555 01 99',
        language: 'de',
        consent: true,
        from: '2030-01-08',
        to: '2030-01-18',
        ...wish,
      },
    });

  it('the form is told the parts of the day with start times, per weekday', async () => {
    const both = await call(waitlist, '/api/waitlist', { query: { type: consultation } });
    expect(both.json).toMatchObject({
      weekdays: [1, 2, 3, 4, 5],
      dayparts: ['morning', 'afternoon'],
      dayparts_by_weekday: { 1: ['morning'], 2: ['morning'], 3: ['morning'], 4: ['morning', 'afternoon'], 5: ['morning'] },
    });
    const morningOnly = await call(waitlist, '/api/waitlist', { query: { type: mornings } });
    expect(morningOnly.json).toMatchObject({ weekdays: [1, 2, 3, 4, 5], dayparts: ['morning'] });
  });

  it('joining for a part of the day or a weekday without start times is 400 naming the field, and stores nothing', async () => {
    expect(errorsOf(await join(mornings, { dayparts: ['afternoon'] }))).toEqual({ dayparts: ['waitlist.errors.daypartNotOffered'] });
    expect(errorsOf(await join(mornings, { dayparts: ['morning', 'afternoon'] }))).toEqual({ dayparts: ['waitlist.errors.daypartNotOffered'] });
    // Afternoons exist on Thursdays only.
    expect(errorsOf(await join(consultation, { weekdays: [1, 2], dayparts: ['afternoon'] }))).toEqual({ dayparts: ['waitlist.errors.daypartNotOffered'] });
    expect(errorsOf(await join(consultation, { weekdays: [6] }))).toEqual({ weekdays: ['waitlist.errors.weekdayNotOffered'] });
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);

    expect((await join(consultation, { weekdays: [2, 4], dayparts: ['afternoon'] })).status).toBe(201);
    expect((await join(consultation, { dayparts: ['afternoon'] })).status).toBe(201);
    expect((await join(mornings, { dayparts: ['morning'] })).status).toBe(201);
    expect((await join(mornings, {})).status).toBe(201);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(4);
  });

  it('the week view counts an entry only on days with a time that fits it: no weekend, no afternoon wish on a morning day', async () => {
    // Any day, any time; and afternoons only.
    expect((await join(consultation, { from: '2030-01-07', to: '2030-01-13' })).status).toBe(201);
    expect((await join(consultation, { from: '2030-01-07', to: '2030-01-13', dayparts: ['afternoon'] })).status).toBe(201);
    const counts = await api(staffCounts, '/api/admin/waitlist/counts', { query: { from: '2030-01-07', to: '2030-01-13' } });
    expect(counts.status).toBe(200);
    expect(counts.json.total).toBe(2);
    expect(counts.json.days.map((d: { date: string; count: number }) => `${d.date} ${d.count}`)).toEqual([
      '2030-01-07 1',
      '2030-01-08 1',
      '2030-01-09 1',
      '2030-01-10 2',
      '2030-01-11 1',
      // Saturday and Sunday have no windows: nobody is counted there.
    ]);
  });

  it('the week view counts nobody on a public holiday (Karfreitag), nor on Easter Monday', async () => {
    expect((await join(consultation, { from: '2030-04-15', to: '2030-04-26' })).status).toBe(201);
    const counts = await api(staffCounts, '/api/admin/waitlist/counts', { query: { from: '2030-04-15', to: '2030-04-23' } });
    expect(counts.json.days.map((d: { date: string }) => d.date)).toEqual(['2030-04-15', '2030-04-16', '2030-04-17', '2030-04-18', '2030-04-23']);
  });
});
