/**
 * Retention with a fake clock (docs/decisions/026-arrival-practice-notice-retention.md),
 * on PGlite and on a real Postgres: a booking's appointment contact (the
 * patient's details) survives until 23:59:59 Berlin time on the
 * appointment's day, also after the appointment has ended, and is gone once
 * the scheduled job runs after Berlin midnight; on the days the clocks
 * change too. The booking row (reference, type, time, arrival) stays.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import sendReminders from '../../netlify/functions/send-reminders';
import { appointmentContacts, bookedSlots } from '../../db/schema';
import { parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { seal } from '../../src/server/appointment-contact/seal.server';
import { purgeEnded } from '../../src/server/appointment-contact/job.server';
import { addBookableType } from '../helpers/fixtures';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const keys = parseKeyRing(Buffer.alloc(32, 7).toString('hex'));

describe.each(databaseKinds)('the day-end purge on %s', (kind) => {
  const t = useTestBed({ database: kind, dataDir: 'day-end-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example' } });
  let typeId: string;

  beforeAll(async () => {
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', slotDurationMinutes: 20 })).id;
  });

  beforeEach(async () => {
    vi.useRealTimers();
    await t.db.delete(bookedSlots);
  });

  /** A booking with its sealed contact, as every booking now keeps one. */
  async function bookingWithContact(date: string, time: string): Promise<string> {
    const [row] = await t.db.insert(bookedSlots).values({ appointmentTypeId: typeId, appointmentDate: date, appointmentTime: time, seat: 1, source: 'phone' }).returning();
    const sealed = seal({ email: 'p@example.org', firstName: 'P', lastName: 'Q', language: 'de', token: 'T'.repeat(43), birthDate: '1960-01-01', phone: '0211 123456' }, row!.id, keys);
    await t.db.insert(appointmentContacts).values({ bookingId: row!.id, ...sealed });
    return row!.id;
  }
  const contactIds = async () => (await t.db.select({ id: appointmentContacts.bookingId }).from(appointmentContacts)).map((r) => r.id).sort();

  /** The scheduled function as Netlify runs it, at `now` on a fake clock; answers how many contacts it deleted. */
  async function runJobAt(now: string): Promise<number> {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(now));
    try {
      const res = await sendReminders();
      expect(res.status).toBe(200);
      return ((await res.json()) as { purged: { contacts: number } }).purged.contacts;
    } finally {
      vi.useRealTimers();
    }
  }

  it('keeps the contact all day, after the appointment has ended, until 23:59:59 Berlin; the job after midnight deletes it and keeps the booking', async () => {
    const morning = await bookingWithContact('2030-01-09', '08:20');
    const evening = await bookingWithContact('2030-01-09', '13:20');
    const nextDay = await bookingWithContact('2030-01-10', '08:20');
    expect(await runJobAt('2030-01-09T09:00:00+01:00')).toBe(0); // the morning appointment has ended
    expect(await runJobAt('2030-01-09T23:59:59+01:00')).toBe(0);
    expect(await contactIds()).toEqual([morning, evening, nextDay].sort());
    expect(await runJobAt('2030-01-10T00:00:00+01:00')).toBe(2);
    expect(await contactIds()).toEqual([nextDay]);
    expect(await t.db.select().from(bookedSlots)).toHaveLength(3);
    // A job that missed midnight (Netlify runs it every minute; a run can fail or be late) deletes the same a little later.
    expect(await runJobAt('2030-01-11T00:14:00+01:00')).toBe(1);
    expect(await contactIds()).toEqual([]);
  });

  it('spring forward (31 March 2030, a 23-hour day): the day ends at 22:00 UTC', async () => {
    const id = await bookingWithContact('2030-03-31', '09:00');
    expect(await purgeEnded(t.db, new Date('2030-03-31T21:59:59Z'))).toMatchObject({ contacts: 0 }); // 23:59:59 CEST
    expect(await contactIds()).toEqual([id]);
    expect(await purgeEnded(t.db, new Date('2030-03-31T22:00:00Z'))).toMatchObject({ contacts: 1 }); // 00:00 CEST, 1 April
    expect(await contactIds()).toEqual([]);
  });

  it('fall back (27 October 2030, a 25-hour day): the day ends at 23:00 UTC, not an hour earlier', async () => {
    const id = await bookingWithContact('2030-10-27', '09:00');
    expect(await purgeEnded(t.db, new Date('2030-10-27T22:00:00Z'))).toMatchObject({ contacts: 0 }); // 23:00 CET, still the 27th
    expect(await purgeEnded(t.db, new Date('2030-10-27T22:59:59Z'))).toMatchObject({ contacts: 0 }); // 23:59:59 CET
    expect(await contactIds()).toEqual([id]);
    expect(await purgeEnded(t.db, new Date('2030-10-27T23:00:00Z'))).toMatchObject({ contacts: 1 }); // 00:00 CET, 28 October
    expect(await contactIds()).toEqual([]);
  });

  it("the evening before a clock change: a booking of the day of the change keeps its contact through the night's lost or doubled hour", async () => {
    const spring = await bookingWithContact('2030-03-31', '08:20');
    const fall = await bookingWithContact('2030-10-27', '08:20');
    expect(await purgeEnded(t.db, new Date('2030-03-31T01:30:00Z'))).toMatchObject({ contacts: 0 }); // 03:30 CEST on the day
    expect(await contactIds()).toEqual([spring, fall].sort());
    // 02:30 CET on 27 October, the second time round: the spring day has long ended, the autumn one has not.
    expect(await purgeEnded(t.db, new Date('2030-10-27T01:30:00Z'))).toMatchObject({ contacts: 1 });
    expect(await contactIds()).toEqual([fall]);
  });
});
