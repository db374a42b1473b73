/**
 * The waitlist (docs/decisions/032-waitlist.md, docs/decisions/038-waitlist-offers-for-freed-times.md)
 * through the real handlers, on both drivers: asking with a booking's link
 * and without a booking (phone required), the form's context, bad input
 * that stores nothing, a staff cancel that emails an offer within the
 * request, taking it (the booking moved: same UID, higher SEQUENCE; or a new
 * booking with the entry's phone), the taken link showing the booking,
 * "schon vergeben" with the next free time taken by the same link, at most
 * 5 offers per freed seat, leaving, sealing, a race of two patients for one
 * seat, and the purge at the end of the booking's day and of the range.
 * With a fake clock: offers only for times freed after the entry (times
 * free when asking are in the join's answer, to take at once), not within
 * 2 hours, only 07:00–20:00 Berlin, one open offer and 2 a day per entry;
 * GET on an offer link changes no row of any table.
 */
import { rm } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import blockedItem from '../../netlify/functions/admin-blocked-date';
import bookings from '../../netlify/functions/bookings';
import cancelLink from '../../netlify/functions/bookings-cancel';
import sendReminders from '../../netlify/functions/send-reminders';
import staffWaitlist from '../../netlify/functions/admin-waitlist';
import staffCounts from '../../netlify/functions/admin-waitlist-counts';
import waitlist from '../../netlify/functions/waitlist';
import waitlistLeave from '../../netlify/functions/waitlist-leave';
import waitlistOffer from '../../netlify/functions/waitlist-offer';
import { auditLog, blockedDates, bookedSlots, cancelledBookings, rateLimits, waitlistEntries, waitlistFreedTimes, waitlistOffers } from '../../db/schema';
import { sql } from 'drizzle-orm';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { openContact, sealedContact } from '../../src/server/appointment-contact/store.server';
import appointmentTypeItem from '../../netlify/functions/admin-appointment-type';
import timeSlots from '../../netlify/functions/admin-time-slots';
import { OFFER_LAPSE_MINUTES } from '../../src/server/waitlist/offers.server';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, createNonAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox, type ParsedEml } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { icsOf } from '../helpers/ics';
import { testPatient } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const TOKEN = /([A-Za-z0-9_-]{43})/;

describe.each(databaseKinds)('waitlist on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'waitlist-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let typeId: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    // Two times a weekday (09:00, 09:20), one seat each, bookable 14 days ahead.
    const type = await addBookableType(
      t.db,
      { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 },
      { start: '09:00', end: '09:40' },
    );
    typeId = type.id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(waitlistOffers);
    await t.db.delete(waitlistEntries);
    await t.db.delete(waitlistFreedTimes);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  let people = 0;
  /** An online booking of a new patient; answers its id and link token. */
  async function book(date: string, time: string, overrides: Record<string, unknown> = {}) {
    const email = (overrides.email as string | undefined) ?? `patient-${++people}@example.org`;
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: { ...testPatient, appointment_type_id: typeId, appointment_date: date, appointment_time: time, ...overrides, email },
      ip: `10.0.0.${people % 250}`,
    });
    expect(res.status).toBe(201);
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === email)!;
    return { id: res.json.booking.id as string, token: /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!, email };
  }
  const join = (body: Record<string, unknown>, ip = '10.1.0.1') => call(waitlist, '/api/waitlist', { method: 'POST', body, ip });
  const newPatientEntry = (overrides: Record<string, unknown> = {}) => ({
    appointment_type_id: typeId,
    first_name: 'Wilma',
    last_name: 'Wartend',
    birth_date: '1970-02-03',
    email: `waiting-${++people}@example.org`,
    phone: '0211 555 01 99',
    language: 'de',
    consent: true,
    from: '2030-01-08',
    to: '2030-01-08',
    ...overrides,
  });
  const cancelAsStaff = async (id: string) => {
    const res = await api(cancelFn, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', params: { id }, body: {} });
    expect(res.status).toBe(200);
    await settled();
  };
  const mailsTo = async (to: string) => (await readOutbox(t.outbox)).filter((m) => m.headers.to === to);
  const offersTo = async (to: string) => (await mailsTo(to)).filter((m) => /Früherer Termin frei|An earlier time is free/.test(m.subject));
  const offerToken = (mail: ParsedEml) => new RegExp(`offer=${TOKEN.source}`).exec(mail.text)![1]!;
  const leaveToken = (mail: ParsedEml) => new RegExp(`leave=${TOKEN.source}`).exec(mail.text)![1]!;
  const take = (token: string) => call(waitlistOffer, '/api/waitlist/offer', { method: 'POST', body: { token } });
  const show = (token: string) => call(waitlistOffer, '/api/waitlist/offer', { query: { token } });
  /** Both times of Tuesday 8 January taken. */
  const fillTuesday = async () => [await book('2030-01-08', '09:00'), await book('2030-01-08', '09:20')];

  it('a staff cancel emails the offer to the patient who asked; taking it moves the booking (same UID, higher SEQUENCE, move email) and ends the entry', async () => {
    const [tuesday9] = await fillTuesday();
    const later = await book('2030-01-10', '09:00', { language: 'en' });
    // Only Tuesdays, mornings: nothing free fits yet.
    const asked = await join({ token: later.token, from: '2030-01-07', to: '2030-01-20', weekdays: [2], dayparts: ['morning'] });
    expect(asked.status).toBe(201);
    expect(asked.json).toMatchObject({ free_times: [] });
    await settled();
    const [joined] = await mailsTo(later.email).then((m) => m.filter((x) => x.subject.startsWith('You are on the waiting list')));
    expect(joined).toBeDefined();
    expect(await offersTo(later.email)).toHaveLength(0);
    // Stored sealed: neither address nor name in clear.
    const [row] = await t.db.select().from(waitlistEntries);
    expect(JSON.stringify(row)).not.toContain(later.email);
    expect(row!.toDate).toBe('2030-01-10');

    await cancelAsStaff(tuesday9!.id);
    const [offer, ...more] = await offersTo(later.email);
    expect(more).toHaveLength(0);
    expect(offer!.subject).toBe('An earlier time is free: Health check on Tue 8 Jan 2030 at 09:00');
    expect(offer!.text).toContain('https://praxis.example/en/termin/warteliste?offer=');
    expect(offer!.text).toContain('https://praxis.example/en/termin/warteliste?leave=');
    const token = offerToken(offer!);

    const shown = await show(token);
    expect(shown.status).toBe(200);
    expect(shown.json).toMatchObject({ appointment_type_id: typeId, type_name_en: 'Health check', appointment_date: '2030-01-08', appointment_time: '09:00', current: { date: '2030-01-10', time: '09:00' } });

    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    const taken = await take(token);
    expect(taken.status).toBe(200);
    expect(taken.json.booking).toMatchObject({ id: later.id, appointment_date: '2030-01-08', appointment_time: '09:00', sequence: 1 });
    const [moved] = await mailsTo(later.email);
    expect(icsOf(moved!)).toMatchObject({ method: 'REQUEST', uid: `${later.id}@praxis.example`, sequence: 1, start: '2030-01-08T09:00' });
    const [booking] = await t.db.select().from(bookedSlots).where(eq(bookedSlots.id, later.id));
    expect(booking).toMatchObject({ appointmentDate: '2030-01-08', appointmentTime: '09:00:00' });
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
    // The link is spent, and shows the booking it became, with the booking's own link.
    expect((await take(token)).status).toBe(410);
    const yours = await show(token);
    expect(yours.status).toBe(200);
    expect(yours.json).toMatchObject({ taken_by_you: true, appointment_date: '2030-01-08', appointment_time: '09:00', booking: { token: later.token } });
    expect(yours.json.booking.reference).toMatch(/\w/);
  });

  it('without a booking: asked when nothing fits, offered when a patient cancels, taking books a new appointment with its confirmation', async () => {
    await fillTuesday();
    const [first] = await t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTime, '09:00'));
    const body = newPatientEntry();
    expect((await join(body)).status).toBe(201);
    await settled();
    expect(await offersTo(body.email as string)).toHaveLength(0);
    // The patient's own cancellation through the link frees the seat.
    const cancelledToken = (await readOutbox(t.outbox)).map((m) => /token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]).filter(Boolean);
    let cancelled = false;
    for (const token of cancelledToken) {
      const r = await call(cancelLink, '/api/bookings/cancel', { query: { token: token! } });
      if (r.status === 200 && r.json.appointment_time === '09:00') {
        expect((await call(cancelLink, '/api/bookings/cancel', { method: 'POST', body: { token } })).status).toBe(200);
        cancelled = true;
        break;
      }
    }
    expect(cancelled).toBe(true);
    await settled();
    expect(await t.db.select().from(bookedSlots).where(eq(bookedSlots.id, first!.id))).toHaveLength(0);
    const [offer] = await offersTo(body.email as string);
    expect(offer!.subject).toBe('Früherer Termin frei: Check-up am 08.01.2030 um 09:00');
    const res = await take(offerToken(offer!));
    expect(res.status).toBe(200);
    expect(res.json.booking).toMatchObject({ appointment_date: '2030-01-08', appointment_time: '09:00' });
    // The entry's phone number is the booking's: staff can call about it.
    const contact = openContact(await sealedContact(t.db, res.json.booking.id), res.json.booking.id, await dataKeyRing());
    expect(contact).toMatchObject({ phone: '+492115550199', firstName: 'Wilma', birthDate: '1970-02-03' });
    await settled();
    const confirmation = (await mailsTo(body.email as string)).find((m) => m.subject.startsWith('Terminbestätigung') || /Termin/.test(m.subject) && m.attachments.length > 0);
    expect(confirmation).toBeDefined();
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
  });

  it('at most 5 offers per freed seat at once, the earliest asked first; more once they lapse', async () => {
    const [tuesday9] = await fillTuesday();
    const emails: string[] = [];
    for (let i = 0; i < 7; i++) {
      vi.setSystemTime(new Date(NOW.getTime() + i * 1000));
      const body = newPatientEntry();
      emails.push(body.email as string);
      expect((await join(body, `10.2.0.${i}`)).status).toBe(201);
    }
    await settled();
    await cancelAsStaff(tuesday9!.id);
    const asked = async () => (await Promise.all(emails.map(async (e) => (await offersTo(e)).length))).map((n) => n > 0);
    expect(await asked()).toEqual([true, true, true, true, true, false, false]);
    // Lapsed unanswered: the scheduled job asks the next ones.
    vi.setSystemTime(new Date(NOW.getTime() + (OFFER_LAPSE_MINUTES + 1) * 60_000));
    expect((await sendReminders()).status).toBe(200);
    expect(await asked()).toEqual([true, true, true, true, true, true, true]);
  });

  it('a later taker sees "taken" with the next free time (no new offer) and takes it with the same link; "Von der Liste nehmen" removes the entry', async () => {
    const [tuesday9] = await fillTuesday();
    const a = newPatientEntry();
    const b = newPatientEntry({ to: '2030-01-09', dayparts: ['morning'] });
    expect((await join(a, '10.3.0.1')).status).toBe(201);
    const joinedB = await join(b, '10.3.0.2');
    expect(joinedB.status).toBe(201);
    // Wednesday was free when B asked: in the answer, to take at once, never emailed.
    expect(joinedB.json.free_times).toEqual([
      { appointment_date: '2030-01-09', appointment_time: '09:00' },
      { appointment_date: '2030-01-09', appointment_time: '09:20' },
    ]);
    await settled();
    await sendReminders();
    expect(await offersTo(b.email as string)).toHaveLength(0);
    await cancelAsStaff(tuesday9!.id);
    const [offerA] = await offersTo(a.email as string);
    const [offerB] = await offersTo(b.email as string);
    expect(offerB!.subject).toContain('08.01.2030 um 09:00');
    expect((await take(offerToken(offerA!))).status).toBe(200);
    const offersBefore = await t.db.select().from(waitlistOffers);
    const late = await take(offerToken(offerB!));
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ type: 'taken', next: { appointment_date: '2030-01-09', appointment_time: '09:00' } });
    expect(late.json.next.token).toBeUndefined();
    const shown = await show(offerToken(offerB!));
    expect(shown.status).toBe(409);
    expect(shown.json.next).toEqual({ appointment_date: '2030-01-09', appointment_time: '09:00' });
    // No new offer was made for it: the seat's offers stay for the others.
    expect(await t.db.select().from(waitlistOffers)).toEqual(offersBefore);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(1);
    // The same link takes the next free time.
    const next = await call(waitlistOffer, '/api/waitlist/offer', { method: 'POST', body: { token: offerToken(offerB!), appointment_date: '2030-01-09', appointment_time: '09:00' } });
    expect(next.status).toBe(200);
    expect(next.json.booking).toMatchObject({ appointment_date: '2030-01-09', appointment_time: '09:00' });
    expect((await show(offerToken(offerB!))).json).toMatchObject({ taken_by_you: true, appointment_date: '2030-01-09', appointment_time: '09:00' });
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
  });

  it('the join answer\'s free times are taken with the entry\'s token; a time outside the wish is 400', async () => {
    const body = newPatientEntry({ from: '2030-01-08', to: '2030-01-09', weekdays: [3] });
    const joined = await join(body);
    expect(joined.status).toBe(201);
    expect(joined.json.free_times).toEqual([
      { appointment_date: '2030-01-09', appointment_time: '09:00' },
      { appointment_date: '2030-01-09', appointment_time: '09:20' },
    ]);
    const byEntry = (date: string, time: string) =>
      call(waitlistOffer, '/api/waitlist/offer', { method: 'POST', body: { token: joined.json.token, appointment_date: date, appointment_time: time } });
    expect(errorsOf(await byEntry('2030-01-08', '09:00'))).toHaveProperty('appointment_time');
    expect(errorsOf(await call(waitlistOffer, '/api/waitlist/offer', { method: 'POST', body: { token: joined.json.token } }))).toHaveProperty('appointment_date');
    const taken = await byEntry('2030-01-09', '09:20');
    expect(taken.status).toBe(200);
    expect(taken.json.booking).toMatchObject({ appointment_date: '2030-01-09', appointment_time: '09:20' });
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
    expect((await byEntry('2030-01-09', '09:00')).status).toBe(404);
  });

  it('"Von der Liste nehmen" with an offer\'s token or the entry\'s link removes the entry; leaving is idempotent', async () => {
    const [tuesday9] = await fillTuesday();
    const a = newPatientEntry();
    expect((await join(a)).status).toBe(201);
    await cancelAsStaff(tuesday9!.id);
    const [offer] = await offersTo(a.email as string);
    const [joined] = (await mailsTo(a.email as string)).filter((m) => m.subject.startsWith('Sie stehen auf der Warteliste'));
    expect((await call(waitlistLeave, '/api/waitlist/leave', { method: 'POST', body: { token: offerToken(offer!) } })).status).toBe(204);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
    expect((await call(waitlistLeave, '/api/waitlist/leave', { method: 'POST', body: { token: leaveToken(joined!) } })).status).toBe(204);
    expect((await show(offerToken(offer!))).status).toBe(410);
    // Unknown: 404.
    expect((await show('A'.repeat(43))).status).toBe(404);
    // Leaving is idempotent and tells nothing about a token.
    expect((await call(waitlistLeave, '/api/waitlist/leave', { method: 'POST', body: { token: 'B'.repeat(43) } })).status).toBe(204);
    expect((await call(waitlistLeave, '/api/waitlist/leave', { method: 'POST', body: { token: 'short' } })).status).toBe(400);
  });

  it('bad input names the field and stores nothing; one entry per booking', async () => {
    const booked = await book('2030-01-14', '09:00');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ from: '2030-01-06', to: '2030-01-10' }, 'from', 'waitlist.errors.fromPast'],
      [{ from: '2030-01-08', to: '2030-01-25' }, 'to', 'waitlist.errors.beyondWindow'],
      [{ from: '2030-01-10', to: '2030-01-08' }, 'to', 'waitlist.errors.rangeReversed'],
      [{ from: '2030-01-14', to: '2030-01-14' }, 'from', 'waitlist.errors.notBeforeBooking'],
      [{ from: '2030-02-30', to: '2030-01-08' }, 'from', 'waitlist.errors.fromInvalid'],
      [{ from: '2030-01-08', to: '2030-01-09', weekdays: [0] }, 'weekdays.0', 'waitlist.errors.weekdaysInvalid'],
      [{ from: '2030-01-08', to: '2030-01-09', dayparts: ['night'] }, 'dayparts.0', 'waitlist.errors.daypartsInvalid'],
    ];
    for (const [body, field, key] of cases) {
      expect(errorsOf(await join({ token: booked.token, ...body }))[field]).toEqual([key]);
    }
    expect(errorsOf(await join(newPatientEntry({ first_name: 'A\u202Eb' })))).toHaveProperty('first_name');
    expect(errorsOf(await join(newPatientEntry({ consent: false })))).toHaveProperty('consent');
    // Without a booking the phone number is required, with the booking's rules.
    expect(errorsOf(await join(newPatientEntry({ phone: undefined })))).toEqual({ phone: ['bookingForm.errors.phoneMin'] });
    expect(errorsOf(await join(newPatientEntry({ phone: '12ab' })))).toHaveProperty('phone');
    expect(errorsOf(await join(newPatientEntry({ from: '2030-01-01' })))).toEqual({ from: ['waitlist.errors.fromPast'] });
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);
    expect((await join({ token: booked.token, from: '2030-01-08', to: '2030-01-13' })).status).toBe(201);
    const again = await join({ token: booked.token, from: '2030-01-08', to: '2030-01-10' });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.json)).toContain('already-waiting');
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(1);
    expect((await join({ token: 'C'.repeat(43), from: '2030-01-08', to: '2030-01-10' })).status).toBe(404);
  });

  it('from the success screen: the id of the booking just made is accepted for 30 minutes after booking, then only its link', async () => {
    const booked = await book('2030-01-14', '09:00');
    // The database's own clock stamped the row: put it at the test's "now".
    await t.db.update(bookedSlots).set({ createdAt: NOW }).where(eq(bookedSlots.id, booked.id));
    const body = { booking_id: booked.id.toUpperCase(), from: '2030-01-08', to: '2030-01-13' };
    vi.setSystemTime(new Date(NOW.getTime() + 31 * 60_000));
    expect((await join(body)).status).toBe(404);
    vi.setSystemTime(new Date(NOW.getTime() + 29 * 60_000));
    expect((await join(body)).status).toBe(201);
    const [entry] = await t.db.select().from(waitlistEntries);
    expect(entry!.bookingId).toBe(booked.id);
    expect((await join({ booking_id: '00000000-0000-4000-8000-000000000000', from: '2030-01-08', to: '2030-01-13' })).status).toBe(404);
  });

  it('is limited per email address like bookings', async () => {
    const body = newPatientEntry({ email: 'same@example.org' });
    for (let i = 0; i < 3; i++) expect((await join(body, `10.4.0.${i}`)).status).toBe(201);
    expect((await join(body, '10.4.0.9')).status).toBe(429);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(3);
  });

  it('a cancelled booking takes its entry along; a lifted block offers its times', async () => {
    const booked = await book('2030-01-10', '09:00');
    const joined = await join({ token: booked.token, from: '2030-01-08', to: '2030-01-09', weekdays: [2] });
    expect(joined.status).toBe(201);
    await settled();
    // Tuesday was free: shown to take at once, not emailed.
    expect(joined.json.free_times).toHaveLength(2);
    expect(await offersTo(booked.email)).toHaveLength(0);
    await cancelAsStaff(booked.id);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(0);

    const [block] = await t.db.insert(blockedDates).values({ date: '2030-01-08', reason: 'Fortbildung' }).returning();
    const other = newPatientEntry();
    expect((await join(other)).status).toBe(201);
    await settled();
    expect(await offersTo(other.email as string)).toHaveLength(0);
    const res = await api(blockedItem, `/api/admin/blocked-dates/${block!.id}`, { method: 'DELETE', params: { id: block!.id } });
    expect(res.status).toBe(204);
    await settled();
    expect(await offersTo(other.email as string)).toHaveLength(1);
  });

  it('purges entries at the end of their booking\'s day and of their range (the scheduled job, fake clock)', async () => {
    await fillTuesday();
    const booked = await book('2030-01-09', '09:20');
    const body = newPatientEntry({ from: '2030-01-08', to: '2030-01-11', weekdays: [2] });
    expect((await join(body)).status).toBe(201);
    expect((await join({ token: booked.token, from: '2030-01-08', to: '2030-01-09', weekdays: [2] })).status).toBe(201);
    const ids = async () => (await t.db.select({ id: waitlistEntries.id, booking: waitlistEntries.bookingId }).from(waitlistEntries)).map((r) => (r.booking ? 'booking' : 'range'));
    expect((await ids()).sort()).toEqual(['booking', 'range']);
    // Wednesday 23:59: nothing has ended yet.
    vi.setSystemTime(new Date('2030-01-09T23:59:00+01:00'));
    await sendReminders();
    expect((await ids()).sort()).toEqual(['booking', 'range']);
    // Thursday 00:00: the booking's day has ended.
    vi.setSystemTime(new Date('2030-01-10T00:00:00+01:00'));
    const job = (await (await sendReminders()).json()) as { waitlist: { purged: { entries: number } } };
    expect(job.waitlist.purged.entries).toBe(1);
    expect(await ids()).toEqual(['range']);
    // Saturday 00:00: the range (to Friday) has passed.
    vi.setSystemTime(new Date('2030-01-11T23:59:00+01:00'));
    await sendReminders();
    expect(await ids()).toEqual(['range']);
    vi.setSystemTime(new Date('2030-01-12T00:00:00+01:00'));
    await sendReminders();
    expect(await ids()).toEqual([]);
    expect(await t.db.select().from(waitlistOffers).where(and(eq(waitlistOffers.appointmentDate, '2030-01-08')))).toHaveLength(0);
  });

  it('staff see how many wait per type and day, and the list with names (no-store, audited as a view, staff only)', async () => {
    const booked = await book('2030-01-10', '09:00');
    expect((await join({ token: booked.token, from: '2030-01-08', to: '2030-01-20', weekdays: [2, 3] })).status).toBe(201);
    expect((await join(newPatientEntry({ first_name: 'Quirin', last_name: 'Quellwasser', from: '2030-01-08', to: '2030-01-09' }))).status).toBe(201);
    const counts = await api(staffCounts, '/api/admin/waitlist/counts', { query: { from: '2030-01-07', to: '2030-01-10' } });
    expect(counts.status).toBe(200);
    expect(counts.json.total).toBe(2);
    expect(counts.json.days.map((d: { date: string; count: number }) => [d.date, d.count])).toEqual([
      ['2030-01-08', 2],
      ['2030-01-09', 2],
    ]);
    expect(JSON.stringify(counts.json)).not.toContain('Quirin');
    expect(await t.db.select().from(auditLog)).toHaveLength(0);

    const list = await api(staffWaitlist, '/api/admin/waitlist');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.json).toHaveLength(2);
    expect(list.json[0]).toMatchObject({ first_name: testPatient.first_name, from: '2030-01-08', to: '2030-01-10', weekdays: [2, 3], current: { date: '2030-01-10', time: '09:00' } });
    expect(list.json[1]).toMatchObject({ first_name: 'Quirin', last_name: 'Quellwasser', birth_date: '1970-02-03', current: null, asked_at: NOW.toISOString() });
    const audit = await t.db.select().from(auditLog);
    expect(audit).toMatchObject([{ action: 'view', entity: 'waitlist', label: 'Warteliste: 2 Einträge' }]);
    expect(JSON.stringify(audit)).not.toContain('Quirin');
    const outsider = await createNonAdmin(t.db, { email: 'helper@praxis.example' });
    const refused = await call(staffWaitlist, '/api/admin/waitlist', { headers: { cookie: outsider.cookie } });
    expect(refused.status).toBe(403);
    expect((await call(staffWaitlist, '/api/admin/waitlist')).status).toBe(401);
  });

  it('two patients taking one offered seat at once: one gets it, the other 409 taken; capacity exact', async () => {
    const [tuesday9] = await fillTuesday();
    const a = newPatientEntry();
    const b = newPatientEntry();
    expect((await join(a, '10.5.0.1')).status).toBe(201);
    expect((await join(b, '10.5.0.2')).status).toBe(201);
    await cancelAsStaff(tuesday9!.id);
    const tokens = [offerToken((await offersTo(a.email as string))[0]!), offerToken((await offersTo(b.email as string))[0]!)];
    const results = await Promise.all(tokens.map((token) => take(token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const atTime = await t.db.select().from(bookedSlots).where(and(eq(bookedSlots.appointmentDate, '2030-01-08'), eq(bookedSlots.appointmentTime, '09:00')));
    expect(atTime).toHaveLength(1);
    expect(await t.db.select().from(waitlistEntries)).toHaveLength(1);
  });
});
