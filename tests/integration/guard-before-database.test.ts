/**
 * A request without a session is refused before the database is opened:
 * the staff routes (adminRoute) and an account's own routes (sessionRoute)
 * answer 401 without loading the driver, so a cold function that only
 * refuses does not pay for a connection. A request that carries a session
 * cookie does open it (the session is looked up there).
 */
import { describe, expect, it, vi } from 'vitest';

const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/database.server', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/database.server')>();
  return {
    ...real,
    // An unreachable database, as its driver reports one: 503 database-unavailable.
    getDb: () => {
      opened.count++;
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    },
  };
});

const { default: audit } = await import('../../netlify/functions/admin-audit');
const { default: sessions } = await import('../../netlify/functions/auth-sessions');
const { call } = await import('../helpers/http');
const { ACCESS_COOKIE } = await import('../../src/server/auth/cookies.server');

describe('a request without a session', () => {
  it.each([
    ['GET /api/admin/audit (staff)', audit, '/api/admin/audit'],
    ['GET /api/auth/sessions (own account)', sessions, '/api/auth/sessions'],
  ])('%s: 401, the database never opened', async (_, handler, path) => {
    opened.count = 0;
    const res = await call(handler, path);
    expect(res.status).toBe(401);
    expect(opened.count).toBe(0);
  });

  it('with a session cookie the session is looked up in the database', async () => {
    opened.count = 0;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await call(audit, '/api/admin/audit', { headers: { cookie: `${ACCESS_COOKIE}=a.b.c` } });
    expect(opened.count).toBe(1);
    expect(res.status).toBe(503);
    expect(logged).toHaveBeenCalledWith('database unavailable code=ECONNREFUSED');
    logged.mockRestore();
  });
});
