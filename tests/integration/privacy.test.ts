/**
 * The privacy test (docs/architecture.md, Privacy), on both drivers: after
 * booking (with a reminder), the patient's own move, staff's move, staff's
 * cancellation with a message, the patient's own cancellation, the reminder
 * job, arrival marks and the day-end purge, no value a patient entered (nor
 * their link's token, nor the practice's message) is in clear in any table,
 * any file of the data directory (PGlite's database files included; the
 * outbox, which stands for the mail service, aside) or any log line, nor in
 * any email to the practice; and the purge at Berlin midnight leaves no
 * contact of the ended day. Then the same after phone bookings with the
 * caller's details, the staff views that show them and "Patient suchen"
 * (docs/decisions/025), whose query is in no log and no audit row either;
 * the practice gets no email of a phone booking.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import attendanceFn from '../../netlify/functions/admin-booked-slot-attendance';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import patientSearch from '../../netlify/functions/admin-patients';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookings from '../../netlify/functions/bookings';
import cancelLink from '../../netlify/functions/bookings-cancel';
import reschedule from '../../netlify/functions/bookings-reschedule';
import sendReminders from '../../netlify/functions/send-reminders';
import type { Database } from '../../db/client';
import { appointmentContacts, bookedSlots } from '../../db/schema';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { everyTableAsText, filesOf } from '../helpers/at-rest';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { toE164 } from '../../src/lib/phone';
import shortLinkFn from '../../netlify/functions/short-link';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

const patients = [
  { first_name: 'Zerberus', last_name: 'Quastenflosser', birth_date: '1971-02-03', phone: '0211 98765432', email: 'zerberus.q@example.org' },
  { first_name: 'Philomena', last_name: 'Wolkenkratzer', birth_date: '1983-11-29', phone: '0211 55512398', email: 'philomena.w@example.org' },
  { first_name: 'Ottokar', last_name: 'Regenbogenforelle', birth_date: '1990-05-17', phone: '0211 44433321', email: 'ottokar.r@example.org' },
];
const MESSAGE = 'Frau Doktor Sonnenblumenfeld ist erkrankt';
const callers = [
  { first_name: 'Kunigunde', last_name: 'Schnabeltasse', phone: '0211 77788812', birth_date: '1948-07-21', email: 'kunigunde.s@example.org', language: 'en' },
  { first_name: 'Bartholomäus', last_name: 'Hühnerleiter', phone: '0211 66699934' },
];

describe.each(databaseKinds)('no patient value in clear anywhere on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    pgliteOnDisk: true,
    now: NOW,
    dataDir: 'privacy-',
    env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' },
  });
  let db: Database;
  let admin: TestUser;
  let typeId: string;
  const logs: string[] = [];
  const secrets: string[] = [MESSAGE];
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    db = t.db;
    admin = await createAdmin(db);
    const type = await addBookableType(db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30 });
    typeId = type.id;
    for (const p of patients) secrets.push(p.first_name, p.last_name, p.email, p.birth_date, p.phone, p.phone.replace(/\s/g, ''), toE164(p.phone)!, p.birth_date.split('-').reverse().join('.'));
    captureConsole(logs);
  });

  async function expectNothingInClear(step: string) {
    if (kind === 'pglite') await db.execute(sql`checkpoint`);
    const tables = await everyTableAsText(db);
    const files = await filesOf(t.dataDir);
    if (kind === 'pglite') expect(files.some((f) => f.file.includes(`${path.sep}pglite${path.sep}`)), step).toBe(true);
    for (const secret of secrets) {
      expect(tables, `${step}: a table holds ${secret}`).not.toContain(secret);
      expect(logs.join('\n'), `${step}: the log holds ${secret}`).not.toContain(secret);
      for (const { file, bytes } of files) expect(bytes.includes(Buffer.from(secret, 'utf8')), `${step}: ${file} holds ${secret}`).toBe(false);
    }
  }

  const tokenFor = async (email: string) => {
    const mail = (await readOutbox(path.join(t.dataDir, 'outbox'))).find((m) => m.headers.to === email && /token=/.test(m.text))!;
    return /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
  };

  it('after booking, moving, cancelling, the reminder, arrival marks and the day-end purge; practice emails hold no patient value', async () => {
    const ids: string[] = [];
    for (const [i, p] of patients.entries()) {
      const res = await call(bookings, '/api/bookings', {
        method: 'POST',
        ip: `192.0.2.${i + 1}`,
        body: { ...p, consent: true, language: i === 1 ? 'en' : 'de', reminder: true, appointment_type_id: typeId, appointment_date: '2030-01-09', appointment_time: ['09:00', '09:20', '09:40'][i] },
      });
      expect(res.status).toBe(201);
      ids.push(res.json.booking.id);
      secrets.push(await tokenFor(p.email));
    }
    await expectNothingInClear('booked');

    expect((await call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token: secrets.at(-3), appointment_date: '2030-01-10', appointment_time: '10:00' } })).status).toBe(200);
    expect((await api(moveFn, `/api/admin/booked-slots/${ids[1]}/move`, { method: 'POST', params: { id: ids[1]! }, body: { appointment_date: '2030-01-10', appointment_time: '10:20' } })).status).toBe(200);
    await expectNothingInClear('moved');

    expect((await api(cancelFn, `/api/admin/booked-slots/${ids[1]}/cancel`, { method: 'POST', params: { id: ids[1]! }, body: { message: MESSAGE } })).status).toBe(200);
    expect((await call(cancelLink, '/api/bookings/cancel', { method: 'POST', body: { token: secrets.at(-1) } })).status).toBe(200);
    await expectNothingInClear('cancelled');
    // The practice's message reached the patient, and only the patient.
    const mails = await readOutbox(path.join(t.dataDir, 'outbox'));
    expect(mails.filter((m) => m.text.includes(MESSAGE)).map((m) => m.headers.to)).toEqual([patients[1]!.email]);

    // The reminder of the one left (moved to Thursday 10:00) goes on Wednesday; the purge after its end.
    vi.setSystemTime(new Date('2030-01-09T10:00:00+01:00'));
    await settled();
    expect(((await (await sendReminders()).json()) as { queued: number; delivery: { sent: number } })).toMatchObject({ queued: 1, delivery: { sent: 1 } });
    await expectNothingInClear('reminded');
    expect(await db.select().from(appointmentContacts)).toHaveLength(1);
    // On its day reception marks the patient arrived (and once more, after undoing it): a status, no patient value.
    vi.setSystemTime(new Date('2030-01-10T09:55:00+01:00'));
    admin = await createAdmin(db); // a session of that morning
    const mark = (attendance: string | null) =>
      api(attendanceFn, `/api/admin/booked-slots/${ids[0]}/attendance`, { method: 'PUT', params: { id: ids[0]! }, body: { attendance } });
    for (const attendance of ['arrived', null, 'arrived']) expect((await mark(attendance)).status).toBe(200);
    await expectNothingInClear('arrival marked');
    // The appointment has ended, but its day has not: reception still sees who came.
    vi.setSystemTime(new Date('2030-01-10T23:59:59+01:00'));
    expect(((await (await sendReminders()).json()) as { purged: { contacts: number } }).purged.contacts).toBe(0);
    expect(await db.select().from(appointmentContacts)).toHaveLength(1);
    // Berlin midnight: the day has ended, the contact goes; the booking and its arrival stay.
    vi.setSystemTime(new Date('2030-01-11T00:00:00+01:00'));
    const purged = (await (await sendReminders()).json()) as { purged: { contacts: number } };
    expect(purged.purged.contacts).toBe(1);
    expect(await db.select().from(appointmentContacts)).toHaveLength(0);
    expect((await db.select({ attendance: bookedSlots.attendance }).from(bookedSlots).where(eq(bookedSlots.id, ids[0]!)))[0]?.attendance).toBe('arrived');
    // The practice's mailbox got every notification, none with a patient value in it.
    const practiceMails = (await readOutbox(path.join(t.dataDir, 'outbox'))).filter((m) => m.headers.to === 'team@praxis.example');
    expect(practiceMails.length).toBeGreaterThanOrEqual(patients.length);
    for (const mail of practiceMails) {
      for (const secret of secrets) expect(`${mail.subject}\n${mail.text}\n${mail.html}`, `practice email "${mail.subject}" holds ${secret}`).not.toContain(secret);
    }
    await expectNothingInClear('purged');
  });

  it('after phone bookings with the caller\'s details, the staff views and the search', async () => {
    vi.setSystemTime(NOW);
    for (const c of callers) {
      secrets.push(c.first_name, c.last_name, c.phone, c.phone.replace(/\s/g, ''), toE164(c.phone)!);
      if (c.birth_date) secrets.push(c.birth_date, c.birth_date.split('-').reverse().join('.'));
      if (c.email) secrets.push(c.email);
    }
    const ids: string[] = [];
    for (const [i, c] of callers.entries()) {
      const res = await api(bookedCollection, '/api/admin/booked-slots', {
        method: 'POST',
        body: { ...c, appointment_type_id: typeId, appointment_date: '2030-01-11', appointment_time: ['09:00', '09:20'][i] },
      });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    secrets.push(await tokenFor(callers[0]!.email!));
    await expectNothingInClear('phone booked');
    // Only the caller with an email was written to; the practice, which took the call, was not.
    const mails = await readOutbox(path.join(t.dataDir, 'outbox'));
    expect(mails.filter((m) => m.headers.to === callers[0]!.email)).toHaveLength(1);
    const mentions = (c: (typeof callers)[number]) => mails.filter((m) => m.text.includes(c.last_name)).map((m) => m.headers.to);
    expect(mentions(callers[0]!)).toEqual([callers[0]!.email]);
    expect(mentions(callers[1]!)).toEqual([]);

    const day = await api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-11', to: '2030-01-11', view: 'day-list' } });
    expect(day.json.map((r: any) => r.patient.last_name)).toEqual(['Schnabeltasse', 'Hühnerleiter']);
    for (const q of ['schnabel', 'huhnerleiter', '21.07.1948']) {
      const res = await api(patientSearch, '/api/admin/patients', { query: { q } });
      expect(res.json).toHaveLength(1);
    }
    secrets.push('schnabel', 'huhnerleiter');
    await expectNothingInClear('viewed and searched');

    expect((await api(cancelFn, `/api/admin/booked-slots/${ids[1]}/cancel`, { method: 'POST', params: { id: ids[1]! }, body: {} })).json.patient_phone).toBe(toE164(callers[1]!.phone));
    await expectNothingInClear('phone booking cancelled');
  });
  it('SMS: the numbers, the texts and the short links\' codes and tokens are nowhere in clear (tables, data dir, logs)', async () => {
    vi.setSystemTime(NOW);
    admin = await createAdmin(db);
    const mobiles = [
      { first_name: 'Walburga', last_name: 'Zitronenfalter', phone: '0171 2223334' },
      { first_name: 'Eusebius', last_name: 'Kartoffelacker', phone: '0160 9998887', email: 'eusebius@example.invalid', birth_date: '1955-05-05' },
    ];
    for (const m of mobiles) secrets.push(m.first_name, m.last_name, m.phone, m.phone.replace(/\s/g, ''), toE164(m.phone)!, toE164(m.phone)!.slice(1));
    const SMS_MESSAGE = 'Gruesse von Doktor Pusteblume';
    secrets.push(SMS_MESSAGE);
    // A phone booking without email: its confirmation and the practice's move go by SMS.
    const phoneBooked = await api(bookedCollection, '/api/admin/booked-slots', {
      method: 'POST',
      body: { ...mobiles[0], sms: true, appointment_type_id: typeId, appointment_date: '2030-01-14', appointment_time: '09:00' },
    });
    expect(phoneBooked.status).toBe(201);
    expect(
      (await api(moveFn, `/api/admin/booked-slots/${phoneBooked.json.id}/move`, { method: 'POST', params: { id: phoneBooked.json.id }, body: { appointment_date: '2030-01-14', appointment_time: '10:00', message: SMS_MESSAGE } })).status,
    ).toBe(200);
    // An online booking whose email can never arrive: the confirmation falls back to SMS, with a short link.
    const online = await call(bookings, '/api/bookings', {
      method: 'POST',
      ip: '192.0.2.99',
      body: { ...mobiles[1], sms: true, consent: true, language: 'de', appointment_type_id: typeId, appointment_date: '2030-01-14', appointment_time: '11:00' },
    });
    expect(online.status).toBe(201);
    await settled();
    const dir = path.join(t.dataDir, 'outbox');
    const texts = [];
    for (const name of (await readdir(dir)).filter((f) => f.endsWith('.sms.txt'))) texts.push((await readFile(path.join(dir, name), 'utf8')).split('\n\n').slice(1).join('\n\n').trim());
    expect(texts).toHaveLength(3);
    const link = texts.map((x) => /\/k\/(\S{12})/.exec(x)?.[1]).find(Boolean)!;
    expect(link).toBeTruthy();
    // The texts as sent, their link's code, and the token it leads to.
    secrets.push(...texts, link);
    const followed = await call(shortLinkFn, `/k/${link}`, { ip: '192.0.2.98' });
    secrets.push(new URL(followed.headers.get('location')!).searchParams.get('token')!);
    await expectNothingInClear('sms sent');
    // The SMS reached only the patients' numbers: no SMS and no practice email names them.
    const practiceMails = (await readOutbox(dir)).filter((m) => m.headers.to === 'team@praxis.example');
    for (const mail of practiceMails) for (const m of mobiles) expect(mail.text).not.toContain(toE164(m.phone)!);
  });
});
