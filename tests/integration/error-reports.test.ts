/**
 * Error reports (docs/decisions/045-operations.md): with SENTRY_DSN set, a
 * bug inside a booking is reported through Sentry's SDK, and the patient's
 * marker name (in the body, the error's message and cause, a query string,
 * a cookie and a header) appears nowhere in what would leave the process
 * (a fake transport records the envelopes). Without a DSN nothing is sent.
 */
import { randomBytes } from 'node:crypto';
import { createTransport } from '@sentry/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import * as contactStore from '../../src/server/appointment-contact/store.server';
import { reportError } from '../../src/server/operations/error-reports.server';
import { scrubEvent, useTransport } from '../../src/server/operations/sentry.server';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest } from '../helpers/patient';
import { useTestBed } from '../setup/test-bed';

const NOW = new Date('2030-01-07T07:00:00+01:00');
const MARKER = 'Wunibaldine';
const DSN = 'https://0123456789abcdef0123456789abcdef@o4500000000000000.ingest.de.sentry.io/4500000000000001';

describe('Sentry error reports, scrubbed', () => {
  const t = useTestBed({ database: 'pglite', now: NOW, dataDir: 'sentry-', env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') } });
  const envelopes: string[] = [];
  let typeId: string;

  beforeAll(async () => {
    useTransport((options) =>
      createTransport(options, async (request) => {
        envelopes.push(typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body));
        return { statusCode: 200 };
      }),
    );
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 })).id;
  });
  afterEach(() => {
    // The bug's own log line (its name and stack, never its message) was expected here.
    vi.mocked(console.error).mockClear();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    envelopes.length = 0;
  });
  afterAll(() => useTransport(undefined));

  function failInsideBooking() {
    const cause = new Error(`row (${MARKER}, ${MARKER.toLowerCase()}@example.org) rejected`);
    const bug = new Error(`Key (first_name)=(${MARKER}) violates something`, { cause });
    bug.name = 'BookingBugForTest';
    Object.assign(bug, { detail: MARKER, patient: { first_name: MARKER } });
    vi.spyOn(contactStore, 'newContact').mockImplementation(() => {
      throw bug;
    });
  }

  const book = () =>
    call(bookings, `/api/bookings?name=${MARKER}`, {
      method: 'POST',
      headers: { cookie: `praxis_name=${MARKER}`, 'x-patient': MARKER, 'user-agent': `Browser ${MARKER}` },
      body: bookingRequest(typeId, '2030-01-08', '09:00', { first_name: MARKER, email: `${MARKER.toLowerCase()}@example.org` }),
    });

  it('a bug inside a booking is reported with its type, route and request id, and the marker is nowhere in the sent event', async () => {
    vi.stubEnv('SENTRY_DSN', DSN);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failInsideBooking();
    const res = await book();
    expect(res.status).toBe(500);
    await settled();
    expect(envelopes).toHaveLength(1);
    const envelope = envelopes[0]!;
    // Not vacuous: the event is there, naming what failed and where.
    expect(envelope).toContain('BookingBugForTest');
    expect(envelope).toContain('/api/bookings');
    expect(envelope).toContain(res.headers.get('x-request-id')!);
    expect(envelope.toLowerCase()).not.toContain(MARKER.toLowerCase());
    expect(envelope).not.toMatch(/example\.org|127\.0\.0\.1|cookie|x-patient|user-agent/i);
    const event = JSON.parse(envelope.split('\n')[2]!) as Record<string, unknown>;
    for (const key of ['request', 'user', 'breadcrumbs', 'extra', 'server_name']) expect(event, key).not.toHaveProperty(key);
  });

  it('without SENTRY_DSN nothing is sent', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failInsideBooking();
    expect((await book()).status).toBe(500);
    await settled();
    await reportError(new Error('direct'), { kind: 'job', where: 'reminders' });
    expect(envelopes).toEqual([]);
  });

  it('scrubEvent keeps only the type, the stack frames and our tags, whatever an integration added', () => {
    const event = scrubEvent({
      message: MARKER,
      request: { url: `https://x/?q=${MARKER}`, cookies: { a: MARKER }, headers: { cookie: MARKER }, data: MARKER },
      user: { id: MARKER, ip_address: '1.2.3.4' },
      server_name: 'host',
      extra: { marker: MARKER },
      breadcrumbs: [{ category: 'fetch', data: { url: `https://api/?token=${MARKER}` } }],
      contexts: { runtime: { name: 'node', version: 'v22' }, patient: { name: MARKER } },
      tags: { kind: 'request', where: '/api/bookings', secret: MARKER },
      exception: { values: [{ type: 'TypeError', value: MARKER, stacktrace: { frames: [{ filename: 'a.js', function: 'f', lineno: 1, context_line: MARKER, vars: { m: MARKER } }] } }] },
    });
    expect(JSON.stringify(event)).not.toContain(MARKER);
    expect(event.exception!.values![0]!.type).toBe('TypeError');
    expect(event.tags).toEqual({ kind: 'request', where: '/api/bookings' });
    expect(event.contexts).toEqual({ runtime: { name: 'node', version: 'v22' } });
  });
});
