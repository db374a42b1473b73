/**
 * The privacy test of patient requests (docs/architecture.md, Privacy;
 * docs/decisions/036-patient-requests.md), on both drivers: after requests
 * of every kind (as JSON and as a form post), reception's views, status
 * changes with the practice's messages, the practice's notice and the
 * status page, no value a patient entered (nor the status link's token,
 * nor the practice's message) is in clear in any table, any file of the
 * data directory (PGlite's files included; the outbox, which stands for the
 * mail service, aside) or any log line; no email to the practice holds any
 * of them, and no email at all names what was asked for.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import adminRequest from '../../netlify/functions/admin-request';
import adminRequests from '../../netlify/functions/admin-requests';
import requests from '../../netlify/functions/requests';
import requestStatus from '../../netlify/functions/requests-status';
import sendReminders from '../../netlify/functions/send-reminders';
import { patientRequests } from '../../db/schema';
import { asAdmin } from '../helpers/admin-call';
import { everyTableAsText, filesOf } from '../helpers/at-rest';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

const patients = [
  { first_name: 'Zerberus', last_name: 'Quastenflosser', birth_date: '1971-02-03', phone: '0211 98765432', email: 'zerberus.q@example.org' },
  { first_name: 'Philomena', last_name: 'Wolkenkratzer', birth_date: '1983-11-29', phone: '0211 55512398', email: 'philomena.w@example.org' },
  { first_name: 'Ottokar', last_name: 'Regenbogenforelle', birth_date: '1990-05-17', phone: '0211 44433321', email: 'ottokar.r@example.org' },
  { first_name: 'Kunigunde', last_name: 'Schnabeltasse', birth_date: '1948-07-21', phone: '0211 77788812', email: 'kunigunde.s@example.org' },
];
/** What the patients asked for: in no email, no table, no file, no log. */
const ASKED = ['Xylofantin', 'Brumbelzid', 'Zwölfpackung', 'Ohrläppchenkunde', 'Kniescheibenflattern', 'Schilddrüsenwerte-Rückfrage', 'Anmerkung-Pfefferminz'];
const MESSAGES = ['Liegt-auf-Karte-Sonnenblume', 'Bitte-Termin-Gänseblümchen'];

describe.each(databaseKinds)('no request value in clear anywhere on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    pgliteOnDisk: true,
    now: NOW,
    dataDir: 'requests-privacy-',
    env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' },
  });
  let admin: TestUser;
  const logs: string[] = [];
  const secrets: string[] = [...ASKED, ...MESSAGES];
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    for (const p of patients) secrets.push(p.first_name, p.last_name, p.email, p.birth_date, p.phone, p.phone.replace(/\s/g, ''), p.birth_date.split('-').reverse().join('.'));
    captureConsole(logs);
  });

  async function expectNothingInClear(step: string) {
    if (kind === 'pglite') await t.db.execute(sql`checkpoint`);
    const tables = await everyTableAsText(t.db);
    const files = await filesOf(t.dataDir);
    if (kind === 'pglite') expect(files.some((f) => f.file.includes(`${path.sep}pglite${path.sep}`)), step).toBe(true);
    for (const secret of secrets) {
      expect(tables, `${step}: a table holds ${secret}`).not.toContain(secret);
      expect(logs.join('\n'), `${step}: the log holds ${secret}`).not.toContain(secret);
      for (const { file, bytes } of files) expect(bytes.includes(Buffer.from(secret, 'utf8')), `${step}: ${file} holds ${secret}`).toBe(false);
    }
  }

  it('after requests of every kind, the queue, status changes, the notice and the status page', async () => {
    const common = (i: number) => ({ ...patients[i]!, consent: true, language: i === 1 ? 'en' : 'de', note: i === 0 ? ASKED[6] : undefined });
    const bodies = [
      { ...common(0), kind: 'prescription', insurance: 'statutory', delivery: 'card', card_read_this_quarter: false, medications: [{ name: ASKED[0], strength: '5 mg', pack: ASKED[2] }, { name: ASKED[1] }] },
      { ...common(1), kind: 'referral', specialty: ASKED[3], reason: ASKED[4] },
      { ...common(2), kind: 'callback', callback_date: '2030-01-08', daypart: 'afternoon', topic: ASKED[5] },
    ];
    for (const [i, body] of bodies.entries()) {
      expect((await call(requests, '/api/requests', { method: 'POST', body, ip: `192.0.2.${i + 1}` })).status).toBe(201);
    }
    // The same as a form post without JavaScript.
    const p = patients[3]!;
    const form = new URLSearchParams({
      page_language: 'de', kind: 'referral', first_name: p.first_name, last_name: p.last_name, birth_date: p.birth_date.split('-').reverse().join('.'),
      email: p.email, phone: p.phone, language: 'de', consent: 'on', specialty: ASKED[3]!, reason: ASKED[4]!,
    });
    const res = await call(requests, '/api/requests', { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ip: '192.0.2.9' });
    // Received: 303 to the page showing the reference; its address carries nothing the patient entered.
    expect(res.status).toBe(303);
    for (const value of [...ASKED, p.first_name, p.last_name, p.email, p.phone]) expect(res.headers.get('location')).not.toContain(value);
    await settled();
    const tokens = (await readOutbox(t.outbox)).flatMap((m) => [.../token=([A-Za-z0-9_-]{43})/.exec(m.text)?.slice(1) ?? []]);
    expect(tokens).toHaveLength(4);
    secrets.push(...tokens);
    await expectNothingInClear('received');

    const list = await api(adminRequests, '/api/admin/requests');
    expect(list.json).toHaveLength(4);
    const byKind = (k: string) => (list.json as Array<{ id: string; kind: string }>).find((r) => r.kind === k)!;
    const [first, second] = [byKind('prescription'), byKind('callback')];
    for (const [row, body] of [
      [first!, { status: 'done', message: MESSAGES[0] }],
      [second!, { status: 'declined', message: MESSAGES[1] }],
    ] as const) {
      expect((await api(adminRequest, `/api/admin/requests/${row.id}`, { method: 'PUT', params: { id: row.id }, body })).status).toBe(200);
    }
    for (const token of tokens) expect((await call(requestStatus, '/api/requests/status', { query: { token } })).status).toBe(200);
    // The patients' emails go out after the answers; the clock moves on only once they have (a jump past
    // their two-minute lease while one is still being sent would let the job send it again).
    await settled();
    vi.setSystemTime(new Date(NOW.getTime() + 16 * 60_000));
    await call(sendReminders, '/.netlify/functions/send-reminders');
    await settled();
    await expectNothingInClear('worked');

    const mails = await readOutbox(t.outbox);
    const practiceMails = mails.filter((m) => m.headers.to === 'team@praxis.example');
    expect(practiceMails.map((m) => m.subject)).toEqual(['1 neue Anfrage', '3 neue Anfragen']);
    for (const mail of practiceMails) for (const secret of secrets) expect(mail.raw, `the practice's email holds ${secret}`).not.toContain(secret);
    // No email names what was asked for; the practice's message goes to its patient only.
    for (const mail of mails) for (const asked of ASKED) expect(mail.text + mail.html + mail.subject, `${mail.subject} names ${asked}`).not.toContain(asked);
    expect(mails.filter((m) => m.text.includes(MESSAGES[0]!)).map((m) => m.headers.to)).toEqual([patients[0]!.email]);

    // The retention's end leaves nothing sealed of the closed ones.
    vi.setSystemTime(new Date(NOW.getTime() + 15 * 24 * 60 * 60_000));
    await call(sendReminders, '/.netlify/functions/send-reminders');
    const rows = await t.db.select().from(patientRequests);
    expect(rows.filter((r) => r.sealed === null).map((r) => r.status).sort()).toEqual(['declined', 'done']);
    expect(rows.every((r) => r.sealed !== null || (r.keyId === null && r.messageSealed === null && r.messageKeyId === null))).toBe(true);
  });
});
