/**
 * Races of the practice's changes
 * (docs/decisions/021-appointment-contact-and-practice-changes.md) on a
 * real multi-connection Postgres (PGlite runs one query at a time and would
 * hide them): staff moves, staff bookings and online bookings for one time
 * share the one capacity guarantee; a move racing the reminder job never
 * gets a reminder for the time it replaced (the job holds the booking while
 * it queues; a move withdraws a queued, unsent one: docs/decisions/035).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import staffBookings from '../../netlify/functions/admin-booked-slots';
import bookings from '../../netlify/functions/bookings';
import reschedule from '../../netlify/functions/bookings-reschedule';
import { appointmentContacts, appointmentTypes, auditLog, bookedSlots, rateLimits } from '../../db/schema';
import { queueDueReminders } from '../../src/server/appointment-contact/reminders.server';
import { deliverQueued } from '../../src/server/email/delivery.server';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import type { EmailMessage, EmailSender } from '../../src/server/email/port.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { testPatient, testCaller } from '../helpers/patient';
import { useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

describe('practice-side changes racing on a real Postgres', () => {
  const t = useTestBed({ database: 'postgres', now: NOW, dataDir: 'practice-races-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', DATABASE_POOL_SIZE: '20' } });
  let admin: TestUser;
  let serial = 0;
  const staff = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });


  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(rateLimits);
  });

  async function newType(capacity: number) {
    const type = await addBookableType(t.db, { name: `Rennen ${++serial}`, description: 'Test', maxSlotsPerTime: capacity, slotDurationMinutes: 20, maxAdvanceDays: 30 });
    return type.id;
  }
  const online = (typeId: string, date: string, time: string, i: number, extra: Record<string, unknown> = {}) =>
    call(bookings, '/api/bookings', {
      method: 'POST',
      ip: `10.9.${Math.floor(i / 250)}.${i % 250}`,
      body: { ...testPatient, appointment_type_id: typeId, appointment_date: date, appointment_time: time, email: `race${i}@example.org`, ...extra },
    });
  const times = Array.from({ length: 16 }, (_, i) => {
    const m = 8 * 60 + 20 + i * 20;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  });

  it.each([1, 3])('%i place(s): staff moves, staff bookings and online bookings for one time: exactly that many win, nothing lost', async (capacity) => {
    const typeId = await newType(capacity);
    // 16 bookings at other times of Tuesday, to be moved by staff to Thursday 09:00.
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await online(typeId, '2030-01-08', times[i]!, 1000 + serial * 100 + i);
      expect(res.status).toBe(201);
      ids.push(res.json.booking.id);
    }
    const target = { appointment_date: '2030-01-10', appointment_time: '09:00' };
    const requests = [
      ...ids.map((id) => staff(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body: target })),
      ...Array.from({ length: 8 }, () => staff(staffBookings, '/api/admin/booked-slots', { method: 'POST', body: { appointment_type_id: typeId, ...target, ...testCaller } })),
      ...Array.from({ length: 8 }, (_, i) => online(typeId, target.appointment_date, target.appointment_time, 5000 + serial * 100 + i)),
    ];
    const results = await Promise.all(requests);
    const won = results.filter((r) => r.status === 200 || r.status === 201);
    expect(won).toHaveLength(capacity);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.type === 'slot-unavailable' && r.json.reason === 'full')).toBe(true);
    const rows = await t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, typeId));
    const atTarget = rows.filter((r) => r.appointmentDate === '2030-01-10' && r.appointmentTime === '09:00:00');
    expect(atTarget).toHaveLength(capacity);
    expect(atTarget.map((r) => r.seat).sort()).toEqual(Array.from({ length: capacity }, (_, i) => i + 1));
    // Every one of the 16 still exists exactly once: moved, or still at its own time.
    for (const [i, id] of ids.entries()) {
      const [row] = rows.filter((r) => r.id === id);
      expect(row).toBeDefined();
      if (!atTarget.some((r) => r.id === id)) expect([row!.appointmentDate, row!.appointmentTime]).toEqual(['2030-01-08', `${times[i]}:00`]);
    }
    // Only the moves that happened are audited.
    const movedIds = results.slice(0, 16).flatMap((r, i) => (r.status === 200 ? [ids[i]] : []));
    const audited = await t.db.select({ id: auditLog.entityId }).from(auditLog).where(eq(auditLog.action, 'move'));
    expect(audited.map((a) => a.id).filter((id) => ids.includes(id)).sort()).toEqual(movedIds.sort());
  });

  it('a block that cancels what it covers, saved while bookings race into its day: afterwards nothing stands under it', async () => {
    const typeId = await newType(2);
    const date = '2030-01-15';
    const blocking = staff(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body: { date, appointment_type_id: typeId, bookings: 'cancel' } });
    const racing = Array.from({ length: 24 }, (_, i) => online(typeId, date, times[i % 16]!, 7000 + serial * 100 + i));
    const [block, ...booked] = await Promise.all([blocking, ...racing]);
    expect(block.status).toBe(201);
    const standing = await t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, typeId));
    expect(standing.filter((r) => r.appointmentDate === date)).toEqual([]);
    // Every booking that got through before the block was cancelled by it, and only those.
    const through = booked.filter((r) => r.status === 201).map((r) => r.json.booking.reference as string);
    expect(block.json.cancelled.map((c: { reference: string }) => c.reference).sort()).toEqual(through.sort());
    expect(booked.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
  });

  describe('a move racing the reminder job', () => {
    /** One run of the job's reminder part: queue what is due (holding contact and booking), then send what the outbox holds. */
    async function reminderJob(sender: EmailSender, now: Date) {
      await settled();
      const keys = await dataKeyRing();
      const queued = await queueDueReminders(t.db, { siteUrl: 'https://praxis.example', keys, now });
      const delivered = await deliverQueued(t.db, { sender, keys, now });
      return { queued: queued.queued, sent: delivered.sent };
    }
    function recording() {
      const sent: EmailMessage[] = [];
      const sender: EmailSender = { kind: 'outbox', send: async (m) => (sent.push(m), { id: randomUUID() }) };
      return { sent, sender };
    }

    it.each([
      ['the patient\'s own reschedule', 'patient'],
      ['staff\'s "Verschieben"', 'staff'],
    ] as const)('%s after the job queued the old time\'s reminder: the move withdraws it, the new time gets its own', async (_label, who) => {
      const typeId = await newType(1);
      const email = `remind${serial}@example.org`;
      const booked = await online(typeId, '2030-01-09', '09:00', 9000 + serial, { reminder: true, email });
      expect(booked.status).toBe(201);
      const id = booked.json.booking.id as string;
      const confirmation = (await readOutbox(t.outbox)).find((m) => m.headers.to === email)!;
      const token = /token=([A-Za-z0-9_-]{43})/.exec(confirmation.text)![1]!;
      const target = { appointment_date: '2030-01-11', appointment_time: '10:20' };
      const move = () =>
        who === 'patient'
          ? call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token, ...target } })
          : staff(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body: target });
      // The job runs as of the reminder's time; the clock stays where the staff session is valid.
      const due = new Date('2030-01-08T08:05:00Z');
      const keys = await dataKeyRing();
      // The job queued the old time's reminder (it held the booking while it did); the move comes before it is sent.
      expect((await queueDueReminders(t.db, { siteUrl: 'https://praxis.example', keys, now: due })).queued).toBe(1);
      expect((await move()).status).toBe(200);
      await settled();
      // Nothing for 09.01 09:00 is left to send: the move withdrew it.
      const mail = recording();
      await reminderJob(mail.sender, due);
      expect(mail.sent.filter((m) => m.to === email && m.subject.startsWith('Erinnerung'))).toEqual([]);
      const [contact] = await t.db.select().from(appointmentContacts).where(eq(appointmentContacts.bookingId, id));
      expect(contact!.remindAt!.toISOString()).toBe('2030-01-10T09:20:00.000Z');
      // The new time's reminder goes at its time, once.
      const later = new Date('2030-01-10T09:20:00Z');
      expect(await reminderJob(mail.sender, later)).toEqual({ queued: 1, sent: 1 });
      expect(mail.sent.filter((m) => m.to === email).map((m) => m.subject)).toEqual([`Erinnerung: ${await typeName(typeId)} am 11.01.2030 um 10:20`]);
    });

    it('a move that holds the booking first: the job skips it and never sends for the old time', async () => {
      const typeId = await newType(1);
      const booked = await online(typeId, '2030-01-09', '09:00', 9500 + serial, { reminder: true, email: `hold${serial}@example.org` });
      const id = booked.json.booking.id as string;
      const mail = recording();
      // A move's transaction has locked the booking and is still running when the job comes.
      await t.db.transaction(async (tx) => {
        await tx.select().from(bookedSlots).where(eq(bookedSlots.id, id)).for('update');
        await reminderJob(mail.sender, new Date('2030-01-08T08:05:00Z'));
        await tx.update(bookedSlots).set({ appointmentDate: '2030-01-11', appointmentTime: '10:20' }).where(eq(bookedSlots.id, id));
        await tx.update(appointmentContacts).set({ remindAt: new Date('2030-01-10T09:20:00Z') }).where(eq(appointmentContacts.bookingId, id));
      });
      expect(mail.sent.filter((m) => m.to === `hold${serial}@example.org`)).toHaveLength(0);
      await reminderJob(mail.sender, new Date('2030-01-10T09:20:00Z'));
      expect(mail.sent.filter((m) => m.to === `hold${serial}@example.org`).map((m) => m.subject)).toEqual([
        `Erinnerung: ${await typeName(typeId)} am 11.01.2030 um 10:20`,
      ]);
    });
  });

  async function typeName(id: string) {
    const [row] = await t.db.select({ name: appointmentTypes.name }).from(appointmentTypes).where(eq(appointmentTypes.id, id));
    return row!.name;
  }
});
