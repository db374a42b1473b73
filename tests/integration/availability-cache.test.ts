/**
 * Availability from Netlify's CDN (docs/decisions/044): every change to a
 * type's times purges that type's tag (every type's for a change to all)
 * through Netlify's purge API, after the answer; a purge that fails is
 * logged by its kind and never fails the change; without Netlify's token
 * (the local server) nothing is sent. The purge API here is a stand-in on
 * a local port that records what it is asked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import adminBlockedDates from '../../netlify/functions/admin-blocked-dates';
import adminBookedSlots from '../../netlify/functions/admin-booked-slots';
import adminTimeSlots from '../../netlify/functions/admin-time-slots';
import adminSettings from '../../netlify/functions/admin-settings';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest, testCaller } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

interface PurgeCall {
  authorization: string | undefined;
  body: { cache_tags?: string[]; site_id?: string };
}

describe.each(databaseKinds)('availability cache purges on %s', (kind) => {
  const t = useTestBed({ database: kind, dataDir: 'availability-cache-', now: new Date('2030-01-07T07:00:00+01:00') });
  let admin: TestUser;
  let checkUp: string;
  let api: ReturnType<typeof asAdmin>;
  let purgeApi: http.Server;
  let calls: PurgeCall[] = [];
  let status = 202;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    api = asAdmin(() => admin);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'c', maxSlotsPerTime: 2 })).id;
    purgeApi = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.method === 'POST' && req.url === '/api/v1/purge') calls.push({ authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => purgeApi.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('NETLIFY_PURGE_API_TOKEN', 'purge-token');
    vi.stubEnv('SITE_ID', 'site-1');
    vi.stubEnv('NETLIFY_API_URL', `http://127.0.0.1:${(purgeApi.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => purgeApi.close(resolve));
  });

  afterEach(() => {
    calls = [];
    status = 202;
  });

  /** The tags purged by the work a change left after its answer. */
  const purged = async () => {
    await settled();
    return calls.map((c) => c.body.cache_tags);
  };

  it('a patient booking purges its type, with the site and the token Netlify gives every function; a cancellation through the link too', async () => {
    const res = await call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(checkUp, '2030-01-08', '09:00', { email: 'purge@example.org' }) });
    expect(res.status).toBe(201);
    expect(await purged()).toEqual([[`availability-${checkUp}`]]);
    expect(calls[0]).toMatchObject({ authorization: 'Bearer purge-token', body: { site_id: 'site-1' } });
    calls = [];
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === 'purge@example.org')!;
    const token = /absagen\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } })).status).toBe(200);
    expect(await purged()).toContainEqual([`availability-${checkUp}`]);
  });

  it("staff changes purge: a phone booking its type, a block for one type that type's, a block for every type every copy, a new window its type", async () => {
    expect((await api(adminBookedSlots, '/api/admin/booked-slots', { method: 'POST', body: { appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '09:20', ...testCaller } })).status).toBe(201);
    expect(await purged()).toEqual([[`availability-${checkUp}`]]);
    calls = [];
    expect((await api(adminBlockedDates, '/api/admin/blocked-dates', { method: 'POST', body: { date: '2030-01-09', appointment_type_id: checkUp } })).status).toBe(201);
    expect(await purged()).toEqual([[`availability-${checkUp}`]]);
    calls = [];
    expect((await api(adminBlockedDates, '/api/admin/blocked-dates', { method: 'POST', body: { date: '2030-01-10', appointment_type_id: '__ALL__' } })).status).toBe(201);
    expect(await purged()).toEqual([['availability']]);
    calls = [];
    expect((await api(adminTimeSlots, '/api/admin/time-slots', { method: 'POST', body: { appointment_type_id: checkUp, days_of_week: [6], start_time: '09:00', end_time: '10:00' } })).status).toBe(201);
    expect(await purged()).toEqual([[`availability-${checkUp}`]]);
    calls = [];
    // Opening a public holiday, or closing 24/31 December, changes every type's days.
    expect((await api(adminSettings, '/api/admin/settings', { method: 'PUT', body: { holidays: { close_dec_24: true } } })).status).toBe(200);
    expect(await purged()).toEqual([['availability']]);
  });

  it('a purge the API refuses is logged by its kind and never fails the change', async () => {
    status = 500;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(checkUp, '2030-01-08', '10:00', { email: 'refused@example.org' }) });
    expect(res.status).toBe(201);
    expect(await purged()).toHaveLength(1);
    expect(warn.mock.calls.map((c) => c.join(' '))).toContain('availability cache purge failed: Error');
    warn.mockRestore();
  });

  it('without the token Netlify gives its functions (the local server) nothing is sent', async () => {
    vi.stubEnv('NETLIFY_PURGE_API_TOKEN', '');
    try {
      const res = await call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(checkUp, '2030-01-08', '10:20', { email: 'local@example.org' }) });
      expect(res.status).toBe(201);
      expect(await purged()).toEqual([]);
    } finally {
      vi.stubEnv('NETLIFY_PURGE_API_TOKEN', 'purge-token');
    }
  });
});
