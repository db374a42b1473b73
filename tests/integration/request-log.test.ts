/**
 * One JSON line per request (docs/decisions/045-operations.md): the route's
 * pattern (the path's ids put back as `:id`), the method, the status, the
 * duration and the request id, which every answer carries as
 * `X-Request-Id`; never the query string, the body, a cookie or a token.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import bookedSlot from '../../netlify/functions/admin-booked-slot';
import bookingsCancel from '../../netlify/functions/bookings-cancel';
import { logLinesTo, requestIdOf, routePatternOf } from '../../src/server/operations/request-log.server';
import { createAdmin } from '../helpers/auth';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

describe('request log lines and X-Request-Id', () => {
  const t = useTestBed({ database: 'pglite', dataDir: 'request-log-' });
  const lines: string[] = [];
  afterEach(() => {
    logLinesTo(undefined);
    lines.length = 0;
  });

  it('logs the pattern, status, duration and id of each request, errors included, and nothing a patient sent', async () => {
    logLinesTo((line) => lines.push(line));
    const admin = await createAdmin(t.db);
    const id = randomUUID();
    const token = 'tok_' + 'A'.repeat(40);
    const unknown = await call(bookedSlot, `/api/admin/booked-slots/${id}`, { method: 'DELETE', params: { id }, headers: { cookie: admin.cookie, origin: 'http://localhost:4321' } });
    const cancel = await call(bookingsCancel, '/api/bookings/cancel', { query: { token } });
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([
      { at: expect.any(String), kind: 'request', method: 'DELETE', route: '/api/admin/booked-slots/:id', status: unknown.status, ms: expect.any(Number), request_id: unknown.headers.get('x-request-id') },
      { at: expect.any(String), kind: 'request', method: 'GET', route: '/api/bookings/cancel', status: cancel.status, ms: expect.any(Number), request_id: cancel.headers.get('x-request-id') },
    ]);
    expect(unknown.status).toBe(404);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain(id);
    expect(new Set(logged.map((l) => l.request_id)).size).toBe(2);
  });

  it("takes Netlify's request id when it is one, makes one otherwise; patterns put the route's parameters back", () => {
    expect(requestIdOf(new Request('http://x/', { headers: { 'x-nf-request-id': '01JABCDEFGHJKMNPQRSTVWXYZ0' } }))).toBe('01JABCDEFGHJKMNPQRSTVWXYZ0');
    expect(requestIdOf(new Request('http://x/', { headers: { 'x-nf-request-id': 'a"b{}<script>' } }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(routePatternOf(new Request('http://x/api/users/7f/sessions/ab?x=1'), { id: '7f', session: 'ab' })).toBe('/api/users/:id/sessions/:session');
    expect(routePatternOf(new Request('http://x/api/nope/a/b/c'), {}, { catchAll: true })).toBe('/api/nope/*');
  });
});
