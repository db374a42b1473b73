import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts, sessions, userRoles, users } from '../../db/schema';
import status from '../../netlify/functions/auth-status';
import setup from '../../netlify/functions/auth-setup';
import login from '../../netlify/functions/auth-login';
import refresh from '../../netlify/functions/auth-refresh';
import session from '../../netlify/functions/auth-session';
import logout from '../../netlify/functions/auth-logout';
import { verifyPassword } from '../../src/server/auth/password.server';
import { sha256Hex } from '../../src/server/auth/tokens.server';
import { accessCookie, cookieHeader, createAdmin, createNonAdmin } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestDatabase, type TestDatabase } from '../helpers/test-database';

/** The cookies of a response as name → { value, attributes }. */
function cookiesOf(headers: Headers): Record<string, { value: string; attributes: string[] }> {
  const out: Record<string, { value: string; attributes: string[] }> = {};
  for (const line of headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(/;\s*/);
    const eq = pair!.indexOf('=');
    out[pair!.slice(0, eq)] = { value: pair!.slice(eq + 1), attributes };
  }
  return out;
}

function cookieFrom(headers: Headers): string {
  const c = cookiesOf(headers);
  return cookieHeader(c.praxis_access!.value, c.praxis_refresh!.value);
}

const SECRET = 'praxis-setup';

describe.each(databaseKinds)('auth API on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(kind);
  });
  afterAll(() => t.dispose());

  describe('first-admin setup', () => {
    it('reports no admin and the default hint outside production', async () => {
      const res = await call(status, '/api/auth/status');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ adminExists: false, setupHint: 'praxis-setup' });
    });

    it('answers 400 with field keys for a short password and bad email, creating nothing', async () => {
      const res = await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'nope', password: '12345', adminSecret: SECRET } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual({ email: ['errors.emailInvalid'], password: ['errors.passwordTooShort'] });
      expect(await t.db.select().from(users)).toEqual([]);
    });

    it('answers 403 for a wrong secret word, creating nothing', async () => {
      const res = await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'chef@example.org', password: 'geheim1', adminSecret: 'falsch' } });
      expect(res.status).toBe(403);
      expect(await t.db.select().from(users)).toEqual([]);
    });

    it('refuses a cross-site Origin with 403', async () => {
      const res = await call(setup, '/api/auth/setup', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
        body: { email: 'chef@example.org', password: 'geheim1', adminSecret: SECRET },
      });
      expect(res.status).toBe(403);
      expect(await t.db.select().from(users)).toEqual([]);
    });

    it('creates the admin (201), storing the email normalised and a scrypt hash, then 409 for a second', async () => {
      const res = await call(setup, '/api/auth/setup', {
        method: 'POST',
        headers: { origin: 'http://localhost:4321' },
        body: { email: '  Chef@Example.org ', password: 'geheim1', adminSecret: SECRET },
      });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ user: { id: expect.any(String), email: 'chef@example.org' } });
      const [row] = await t.db.select().from(users).where(eq(users.email, 'chef@example.org'));
      expect(row!.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(row!.passwordHash).not.toContain('geheim1');
      expect(await verifyPassword('geheim1', row!.passwordHash)).toBe(true);
      expect(await verifyPassword('geheim2', row!.passwordHash)).toBe(false);
      expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, row!.id))).toHaveLength(1);

      const again = await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'zweiter@example.org', password: 'geheim1', adminSecret: SECRET } });
      expect(again.status).toBe(409);
      expect(again.json.type).toBe('admin-exists');
      expect((await call(status, '/api/auth/status')).json.adminExists).toBe(true);
    });
  });

  describe('login, session, refresh, logout', () => {
    afterEach(async () => {
      await t.db.delete(loginAttempts);
    });

    it('signs in: 200 { user, isAdmin, expiresAt } with HttpOnly SameSite=Strict cookies, not Secure on localhost', async () => {
      const before = Date.now();
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'CHEF@example.org', password: 'geheim1' } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ user: { id: expect.any(String), email: 'chef@example.org' }, isAdmin: true, expiresAt: expect.any(String) });
      const expiresIn = Date.parse(res.json.expiresAt) - before;
      expect(expiresIn).toBeGreaterThan(14 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 1000);
      const cookies = cookiesOf(res.headers);
      for (const name of ['praxis_access', 'praxis_refresh']) {
        expect(cookies[name]!.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Strict']));
        expect(cookies[name]!.attributes).not.toContain('Secure');
      }
      expect(res.text).not.toContain(cookies.praxis_access!.value);
      // Only the hash of the refresh token is kept.
      const rows = await t.db.select().from(sessions).where(eq(sessions.refreshTokenHash, sha256Hex(cookies.praxis_refresh!.value)));
      expect(rows).toHaveLength(1);
    });

    it('sets Secure cookies when the site is not on localhost', async () => {
      const res = await call(login, 'https://praxis.example/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: 'geheim1' } });
      expect(res.status).toBe(200);
      for (const c of Object.values(cookiesOf(res.headers))) expect(c.attributes).toContain('Secure');
    });

    it('answers 401 "Invalid login credentials" for a wrong password and an unknown email alike', async () => {
      for (const body of [{ email: 'chef@example.org', password: 'falsch!' }, { email: 'niemand@example.org', password: 'geheim1' }]) {
        const res = await call(login, '/api/auth/login', { method: 'POST', body });
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ status: 401, detail: 'Invalid login credentials' });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });

    it('answers 400 for a missing password', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org' } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual({ password: ['errors.passwordRequired'] });
    });

    it('signs in a non-admin with isAdmin false', async () => {
      const staff = await createNonAdmin(t.db);
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: staff.email, password: staff.password } });
      expect(res.status).toBe(200);
      expect(res.json.isAdmin).toBe(false);
      expect((await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(res.headers) } })).json.isAdmin).toBe(false);
    });

    it('GET session answers as login with the cookie, 401 without', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: 'geheim1' } });
      const me = await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(res.headers) } });
      expect(me.status).toBe(200);
      expect(me.json).toEqual(res.json);
      expect((await call(session, '/api/auth/session')).status).toBe(401);
    });

    it('refresh rotates the refresh token: the new one works, the old one is refused', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: 'geheim1' } });
      const first = cookiesOf(res.headers);
      const refreshed = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.json).toMatchObject({ user: { email: 'chef@example.org' }, isAdmin: true });
      const second = cookiesOf(refreshed.headers);
      expect(second.praxis_refresh!.value).not.toBe(first.praxis_refresh!.value);
      expect((await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(refreshed.headers) } })).status).toBe(200);

      const replay = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      expect(replay.status).toBe(401);
      expect(cookiesOf(replay.headers).praxis_refresh!.attributes).toContain('Max-Age=0');
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST' })).status).toBe(401);
    });

    it('logout answers 204, clears the cookies and revokes the session (access and refresh refused after)', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: 'geheim1' } });
      const cookie = cookieFrom(res.headers);
      const out = await call(logout, '/api/auth/logout', { method: 'POST', headers: { cookie, origin: 'http://localhost:4321' } });
      expect(out.status).toBe(204);
      const cleared = cookiesOf(out.headers);
      expect(cleared.praxis_access).toMatchObject({ value: '' });
      expect(cleared.praxis_access!.attributes).toContain('Max-Age=0');
      expect(cleared.praxis_refresh!.attributes).toContain('Max-Age=0');
      expect((await call(session, '/api/auth/session', { headers: { cookie } })).status).toBe(401);
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie } })).status).toBe(401);
      const refreshHash = sha256Hex(cookiesOf(res.headers).praxis_refresh!.value);
      const [row] = await t.db.select().from(sessions).where(eq(sessions.refreshTokenHash, refreshHash));
      expect(row!.revokedAt).toBeInstanceOf(Date);
    });

    it('logout with only the access cookie still revokes that session', async () => {
      const admin = await createAdmin(t.db);
      expect((await call(logout, '/api/auth/logout', { method: 'POST', headers: { cookie: accessCookie(admin.accessToken) } })).status).toBe(204);
      expect((await call(session, '/api/auth/session', { headers: { cookie: admin.cookie } })).status).toBe(401);
    });

    it.each([
      ['login', login, '/api/auth/login'],
      ['refresh', refresh, '/api/auth/refresh'],
      ['logout', logout, '/api/auth/logout'],
    ] as const)('%s refuses a cross-site Origin with 403', async (_name, handler, path) => {
      const admin = await createAdmin(t.db);
      const res = await call(handler, path, {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie: admin.cookie },
        body: { email: admin.email, password: admin.password },
      });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect((await call(session, '/api/auth/session', { headers: { cookie: admin.cookie } })).status).toBe(200);
    });

    it('accepts the own origin and a same-origin fetch metadata header', async () => {
      const res = await call(login, '/api/auth/login', {
        method: 'POST',
        headers: { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' },
        body: { email: 'chef@example.org', password: 'geheim1' },
      });
      expect(res.status).toBe(200);
      const cross = await call(login, '/api/auth/login', {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
        body: { email: 'chef@example.org', password: 'geheim1' },
      });
      expect(cross.status).toBe(403);
    });
  });

  describe('login rate limit', () => {
    afterEach(async () => {
      await t.db.delete(loginAttempts);
    });

    const attempt = (email: string, password: string, ip: string) =>
      call(login, '/api/auth/login', { method: 'POST', body: { email, password }, ip });

    it('answers 429 after 5 failures for one email, even from other addresses and with the right password', async () => {
      for (let i = 0; i < 5; i++) expect((await attempt('chef@example.org', 'falsch!', `10.0.0.${i}`)).status).toBe(401);
      const blocked = await attempt('chef@example.org', 'geheim1', '10.0.1.1');
      expect(blocked.status).toBe(429);
      expect(blocked.json.type).toBe('rate-limited');
      // Another email from a fresh address is not affected.
      expect((await attempt('niemand@example.org', 'x', '10.0.2.1')).status).toBe(401);
    });

    it('answers 429 after 5 failures from one address, for any email', async () => {
      for (let i = 0; i < 5; i++) expect((await attempt(`probe${i}@example.org`, 'x', '192.0.2.7')).status).toBe(401);
      expect((await attempt('chef@example.org', 'geheim1', '192.0.2.7')).status).toBe(429);
      expect((await attempt('chef@example.org', 'geheim1', '192.0.2.8')).status).toBe(200);
    });

    it('stores the address only as a SHA-256 and lets attempts older than 15 minutes lapse', async () => {
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', '198.51.100.1');
      const rows = await t.db.select().from(loginAttempts);
      expect(rows.map((r) => r.clientKey)).toEqual(Array(4).fill(sha256Hex('198.51.100.1')));
      expect(JSON.stringify(rows)).not.toContain('198.51.100.1');
      // Age them past the window: the fifth failure then does not block the sixth try.
      await t.db.update(loginAttempts).set({ attemptedAt: new Date(Date.now() - 15 * 60_000 - 1000) });
      expect((await attempt('chef@example.org', 'falsch!', '198.51.100.1')).status).toBe(401);
      expect((await attempt('chef@example.org', 'geheim1', '198.51.100.1')).status).toBe(200);
    });

    it('a success clears the earlier failures of that email', async () => {
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', `203.0.113.${i}`);
      expect((await attempt('chef@example.org', 'geheim1', '203.0.113.50')).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await attempt('chef@example.org', 'falsch!', `203.0.113.${10 + i}`)).status).toBe(401);
      expect((await attempt('chef@example.org', 'geheim1', '203.0.113.51')).status).toBe(200);
    });
  });
});

// Setup in production (fail closed, no setup word): tests/integration/production-config.test.ts.
