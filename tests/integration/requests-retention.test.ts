/**
 * How long a request's details are kept (docs/decisions/036-patient-requests.md),
 * on both drivers with a fake clock: 14 days after it was done or declined,
 * 90 days after it arrived if never closed, shorter with
 * REQUEST_RETENTION_DAYS; the every-minute job deletes them. Kind, dates,
 * status and reference stay: the counts, the queue (details "deleted") and
 * the status link still work.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import adminRequest from '../../netlify/functions/admin-request';
import adminRequests from '../../netlify/functions/admin-requests';
import requests from '../../netlify/functions/requests';
import requestStatus from '../../netlify/functions/requests-status';
import sendReminders from '../../netlify/functions/send-reminders';
import { patientRequests, rateLimits } from '../../db/schema';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { rm } from 'node:fs/promises';

// Friday 8 March 2030, 09:00 in Berlin: the 90 days run over the switch to summer time.
const NOW = new Date('2030-03-08T09:00:00+01:00');
const DAY = 24 * 60 * 60_000;
const at = (ms: number) => vi.setSystemTime(new Date(NOW.getTime() + ms));

describe.each(databaseKinds)('request retention on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'requests-retention-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  let n = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  beforeEach(async () => {
    vi.unstubAllEnvs();
    at(0);
    await settled();
    await t.db.delete(patientRequests);
    await t.db.delete(rateLimits);
    await rm(t.outbox, { recursive: true, force: true });
  });

  async function ask(): Promise<{ id: string; token: string }> {
    const email = `keep-${++n}@example.org`;
    const res = await call(requests, '/api/requests', {
      method: 'POST',
      ip: `10.9.0.${n}`,
      body: { kind: 'referral', first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', email, consent: true, language: 'de', specialty: 'Orthopädie', reason: 'Knie' },
    });
    expect(res.status).toBe(201);
    await settled();
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === email)!;
    const [row] = await t.db.select({ id: patientRequests.id }).from(patientRequests).where(eq(patientRequests.reference, res.json.reference));
    return { id: row!.id, token: /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]! };
  }

  /** The admin signs in again after the clock jumped (sessions last minutes, not days). */
  async function close(id: string, status: 'done' | 'declined') {
    admin = await createAdmin(t.db);
    const res = await api(adminRequest, `/api/admin/requests/${id}`, { method: 'PUT', params: { id }, body: { status, message: 'Liegt bereit.' } });
    expect(res.status).toBe(200);
  }

  const job = () => call(sendReminders, '/.netlify/functions/send-reminders');
  const sealed = async (id: string) => (await t.db.select().from(patientRequests).where(eq(patientRequests.id, id)))[0]!;

  it('deletes a closed request’s details 14 days after it was closed, an open one’s 90 days after it arrived', async () => {
    const done = await ask();
    const open = await ask();
    at(1 * DAY);
    await close(done.id, 'done');

    at(15 * DAY - 60_000);
    await job();
    expect((await sealed(done.id)).sealed).not.toBeNull();
    at(15 * DAY);
    await job();
    const purged = await sealed(done.id);
    expect(purged).toMatchObject({ sealed: null, keyId: null, messageSealed: null, messageKeyId: null, status: 'done', kind: 'referral' });
    expect(purged.purgedAt).toEqual(new Date(NOW.getTime() + 15 * DAY));
    // The status link still says what became of it; the message went with the details.
    expect((await call(requestStatus, '/api/requests/status', { query: { token: done.token } })).json).toEqual({
      kind: 'referral',
      reference: purged.reference,
      received_at: NOW.toISOString(),
      status: 'done',
    });

    at(90 * DAY - 60_000);
    await job();
    expect((await sealed(open.id)).sealed).not.toBeNull();
    at(90 * DAY);
    await job();
    expect((await sealed(open.id)).sealed).toBeNull();
    // Still open in the queue, to be closed, its details gone.
    admin = await createAdmin(t.db);
    const list = await api(adminRequests, '/api/admin/requests');
    expect(list.json).toEqual([expect.objectContaining({ id: open.id, status: 'new', details: null, details_state: 'deleted' })]);
  });

  it('REQUEST_RETENTION_DAYS shortens both: no details outlive it, whether closed or not', async () => {
    vi.stubEnv('REQUEST_RETENTION_DAYS', '30');
    const done = await ask();
    const open = await ask();
    at(1 * DAY);
    await close(done.id, 'done');
    at(15 * DAY);
    await job();
    expect((await sealed(done.id)).sealed).toBeNull();
    at(30 * DAY - 60_000);
    await job();
    expect((await sealed(open.id)).sealed).not.toBeNull();
    at(30 * DAY);
    await job();
    expect((await sealed(open.id)).sealed).toBeNull();

    vi.stubEnv('REQUEST_RETENTION_DAYS', '3');
    at(31 * DAY);
    const declined = await ask();
    at(32 * DAY);
    await close(declined.id, 'declined');
    await job();
    expect((await sealed(declined.id)).sealed).not.toBeNull();
    at(34 * DAY);
    await job();
    expect((await sealed(declined.id)).sealed).toBeNull();
  });

  it('REQUEST_RETENTION_DAYS above the periods changes nothing', async () => {
    vi.stubEnv('REQUEST_RETENTION_DAYS', '365');
    const open = await ask();
    at(90 * DAY);
    await job();
    expect((await sealed(open.id)).sealed).toBeNull();
  });
});
