import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginAttempts, sessions, userRoles, users } from '../../db/schema';
import status from '../../netlify/functions/auth-status';
import setup from '../../netlify/functions/auth-setup';
import login from '../../netlify/functions/auth-login';
import refresh from '../../netlify/functions/auth-refresh';
import session from '../../netlify/functions/auth-session';
import logout from '../../netlify/functions/auth-logout';
import { LOGIN_LIMITS, emailKey, loginClientKey } from '../../src/server/auth/auth.server';
import { verifyPassword } from '../../src/server/auth/password.server';
import { REFRESH_GRACE_SECONDS } from '../../src/server/auth/sessions.server';
import { sha256Hex } from '../../src/server/auth/tokens.server';
import { accessCookie, cookieHeader, createAdmin, createNonAdmin } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

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
const PASSWORD = 'praxis-geheim-lang';

describe.each(databaseKinds)('auth API on %s', (kind) => {
  const t = useTestBed({ database: kind });

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
      const res = await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD, adminSecret: 'falsch' } });
      expect(res.status).toBe(403);
      expect(await t.db.select().from(users)).toEqual([]);
    });

    it('refuses a cross-site Origin with 403', async () => {
      const res = await call(setup, '/api/auth/setup', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
        body: { email: 'chef@example.org', password: PASSWORD, adminSecret: SECRET },
      });
      expect(res.status).toBe(403);
      expect(await t.db.select().from(users)).toEqual([]);
    });

    it('creates the admin (201), storing the email normalised and a scrypt hash, then 409 for a second', async () => {
      const res = await call(setup, '/api/auth/setup', {
        method: 'POST',
        headers: { origin: 'http://localhost:4321' },
        body: { email: '  Chef@Example.org ', password: PASSWORD, adminSecret: SECRET },
      });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ user: { id: expect.any(String), email: 'chef@example.org' } });
      const [row] = await t.db.select().from(users).where(eq(users.email, 'chef@example.org'));
      expect(row!.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(row!.passwordHash).not.toContain(PASSWORD);
      expect(await verifyPassword(PASSWORD, row!.passwordHash)).toBe(true);
      expect(await verifyPassword('praxis-geheim-anders', row!.passwordHash)).toBe(false);
      expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, row!.id))).toHaveLength(1);

      const again = await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'zweiter@example.org', password: PASSWORD, adminSecret: SECRET } });
      expect(again.status).toBe(409);
      expect(again.json.type).toBe('admin-exists');
      expect((await call(status, '/api/auth/status')).json.adminExists).toBe(true);
    });
  });

  describe('login, session, refresh, logout', () => {
    afterEach(async () => {
      vi.useRealTimers();
      await t.db.delete(loginAttempts);
    });

    it('signs in: 200 { user, isAdmin, expiresAt } with HttpOnly SameSite=Strict cookies, not Secure on localhost', async () => {
      const before = Date.now();
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'CHEF@example.org', password: PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ user: { id: expect.any(String), email: 'chef@example.org' }, isAdmin: true, expiresAt: expect.any(String), secondFactor: 'none' });
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
      const res = await call(login, 'https://praxis.example/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      expect(res.status).toBe(200);
      for (const c of Object.values(cookiesOf(res.headers))) expect(c.attributes).toContain('Secure');
    });

    it('answers 401 with one German message for a wrong password and an unknown email alike', async () => {
      for (const body of [{ email: 'chef@example.org', password: 'falsch!' }, { email: 'niemand@example.org', password: PASSWORD }]) {
        const res = await call(login, '/api/auth/login', { method: 'POST', body });
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ status: 401, detail: 'E-Mail-Adresse oder Passwort ist falsch.' });
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
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const me = await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(res.headers) } });
      expect(me.status).toBe(200);
      expect(me.json).toEqual(res.json);
      expect((await call(session, '/api/auth/session')).status).toBe(401);
    });

    it('refresh rotates the refresh token: the new one works, the old one is refused once the grace window has passed', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const first = cookiesOf(res.headers);
      const refreshed = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.json).toMatchObject({ user: { email: 'chef@example.org' }, isAdmin: true });
      const second = cookiesOf(refreshed.headers);
      expect(second.praxis_refresh!.value).not.toBe(first.praxis_refresh!.value);
      expect((await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(refreshed.headers) } })).status).toBe(200);

      vi.useFakeTimers({ now: Date.now() + (REFRESH_GRACE_SECONDS + 1) * 1000, toFake: ['Date'] });
      const replay = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      expect(replay.status).toBe(401);
      expect(cookiesOf(replay.headers).praxis_refresh!.attributes).toContain('Max-Age=0');
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST' })).status).toBe(401);
    });

    it('two refreshes racing with the same current token (two tabs) both get the same working session', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const both = await Promise.all([0, 1].map(() => call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } })));
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      const [a, b] = both.map((r) => cookiesOf(r.headers).praxis_refresh!.value);
      expect(a).toBe(b);
      expect(a).not.toBe(cookiesOf(res.headers).praxis_refresh!.value);
      for (const r of both) expect((await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(r.headers) } })).status).toBe(200);
      // The shared cookie keeps working, long after the window.
      vi.useFakeTimers({ now: Date.now() + (REFRESH_GRACE_SECONDS + 60) * 1000, toFake: ['Date'] });
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(both[0]!.headers) } })).status).toBe(200);
    });

    it(`a refresh arriving late with the replaced token within ${REFRESH_GRACE_SECONDS} s (a laptop waking) gets the winner's token; after the window it revokes everything`, async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const winner = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      const start = Date.now();
      vi.useFakeTimers({ now: start + (REFRESH_GRACE_SECONDS - 5) * 1000, toFake: ['Date'] });
      const late = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } });
      expect(late.status).toBe(200);
      expect(cookiesOf(late.headers).praxis_refresh!.value).toBe(cookiesOf(winner.headers).praxis_refresh!.value);
      vi.setSystemTime(start + (REFRESH_GRACE_SECONDS + 1) * 1000);
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } })).status).toBe(401);
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(winner.headers) } })).status).toBe(401);
      expect((await call(session, '/api/auth/session', { headers: { cookie: cookieFrom(winner.headers) } })).status).toBe(401);
    });

    it('a replayed old refresh token revokes the whole session: the newest token is refused too', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const stolen = cookieFrom(res.headers);
      // The thief refreshes first and keeps refreshing …
      const thief1 = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: stolen } });
      expect(thief1.status).toBe(200);
      const thief2 = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(thief1.headers) } });
      expect(thief2.status).toBe(200);
      const newest = cookieFrom(thief2.headers);
      // … until the owner's old token comes back: reuse, the session ends for everyone.
      const replay = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: stolen } });
      expect(replay.status).toBe(401);
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: newest } })).status).toBe(401);
      expect((await call(session, '/api/auth/session', { headers: { cookie: newest } })).status).toBe(401);
      const sid = cookiesOf(res.headers).praxis_refresh!.value.split('.')[0]!;
      const [row] = await t.db.select().from(sessions).where(eq(sessions.id, sid));
      expect(row!.revokedAt).not.toBeNull();
    });

    it('a forged refresh token naming a live session (no server MAC) is refused without revoking it', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
      const token = cookiesOf(res.headers).praxis_refresh!.value;
      const [sid, nonce] = token.split('.');
      const forged = `${sid}.${nonce}.${'A'.repeat(43)}`;
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: `praxis_refresh=${forged}` } })).status).toBe(401);
      expect((await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie: cookieFrom(res.headers) } })).status).toBe(200);
    });

    it('logout answers 204, clears the cookies and revokes the session (access and refresh refused after)', async () => {
      const res = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'chef@example.org', password: PASSWORD } });
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
        body: { email: 'chef@example.org', password: PASSWORD },
      });
      expect(res.status).toBe(200);
      const cross = await call(login, '/api/auth/login', {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
        body: { email: 'chef@example.org', password: PASSWORD },
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

    it('counts failures per (account, client): 5 wrong passwords lock that account on that client only', async () => {
      for (let i = 0; i < 5; i++) expect((await attempt('chef@example.org', 'falsch!', '10.0.0.1')).status).toBe(401);
      const blocked = await attempt('chef@example.org', PASSWORD, '10.0.0.1');
      expect(blocked.status).toBe(429);
      expect(blocked.json).toMatchObject({ type: 'rate-limited', detail: 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es später erneut.' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // Nobody elsewhere can lock the owner out: the account signs in from its own connection.
      expect((await attempt('chef@example.org', PASSWORD, '10.0.0.2')).status).toBe(200);
    });

    it('5 wrong passwords for an unknown address from the practice connection leave the real admin able to sign in from it', async () => {
      for (let i = 0; i < 5; i++) expect((await attempt('unbekannt@example.org', 'falsch!', '198.51.100.20')).status).toBe(401);
      expect((await attempt('unbekannt@example.org', 'falsch!', '198.51.100.20')).status).toBe(429);
      expect((await attempt('chef@example.org', PASSWORD, '198.51.100.20')).status).toBe(200);
    });

    it(`answers 429 after ${LOGIN_LIMITS.perClient} failures from one client, for any accounts; other clients are not affected`, async () => {
      for (let i = 0; i < LOGIN_LIMITS.perClient; i++) {
        expect((await attempt(`probe${i}@example.org`, 'x', '192.0.2.7')).status).toBe(401);
      }
      expect((await attempt('chef@example.org', PASSWORD, '192.0.2.7')).status).toBe(429);
      expect((await attempt('chef@example.org', PASSWORD, '192.0.2.8')).status).toBe(200);
    });

    it.each([
      ['an IPv4 address and its IPv4-mapped IPv6 spelling', (i: number) => (i % 2 ? '198.51.100.77' : '::ffff:198.51.100.77'), '198.51.100.78'],
      ['addresses rotating inside one IPv6 /64', (i: number) => `2001:db8:5:6:${i.toString(16)}::1`, '2001:db8:5:7::1'],
    ])('keys the client canonically: %s count as one client', async (_what, spelling, otherClient) => {
      for (let i = 0; i < 5; i++) expect((await attempt('chef@example.org', 'falsch!', spelling(i))).status).toBe(401);
      expect((await attempt('chef@example.org', PASSWORD, spelling(9))).status).toBe(429);
      expect((await attempt('chef@example.org', PASSWORD, otherClient)).status).toBe(200);
      await t.db.delete(loginAttempts);
      for (let i = 0; i < LOGIN_LIMITS.perClient; i++) await attempt(`probe${i}@example.org`, 'x', spelling(i));
      expect((await attempt('chef@example.org', PASSWORD, spelling(99))).status).toBe(429);
    });

    it('stores address and email only as keyed hashes and lets attempts older than 15 minutes lapse', async () => {
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', '198.51.100.1');
      const rows = await t.db.select().from(loginAttempts);
      expect(rows.map((r) => r.clientKey)).toEqual(Array(4).fill(loginClientKey('198.51.100.1')));
      expect(rows.map((r) => r.email)).toEqual(Array(4).fill(emailKey('chef@example.org')));
      // Not the unsalted SHA-256 an attacker could enumerate.
      expect(rows[0]!.clientKey).not.toBe(sha256Hex('198.51.100.1'));
      expect(rows[0]!.email).not.toBe(sha256Hex('chef@example.org'));
      expect(JSON.stringify(rows)).not.toContain('198.51.100.1');
      expect(JSON.stringify(rows)).not.toContain('chef@example.org');
      // Age them past the window: the fifth failure then does not block the sixth try …
      await t.db.update(loginAttempts).set({ attemptedAt: new Date(Date.now() - 15 * 60_000 - 1000) });
      expect((await attempt('chef@example.org', 'falsch!', '198.51.100.1')).status).toBe(401);
      // … and the aged rows are purged, only the new failure is left.
      expect(await t.db.select().from(loginAttempts)).toHaveLength(1);
      expect((await attempt('chef@example.org', PASSWORD, '198.51.100.1')).status).toBe(200);
    });

    it('a refused attempt carries Retry-After until the oldest counted failure leaves the window, and then it is counted again', async () => {
      const start = Date.now();
      await attempt('chef@example.org', 'falsch!', '198.51.100.9');
      // The oldest failure is 10 minutes old: 5 minutes of the window are left.
      await t.db.update(loginAttempts).set({ attemptedAt: new Date(start - 10 * 60_000) });
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', '198.51.100.9');
      const blocked = await attempt('chef@example.org', PASSWORD, '198.51.100.9');
      expect(blocked.status).toBe(429);
      const seconds = Number(blocked.headers.get('retry-after'));
      expect(seconds).toBeGreaterThan(5 * 60 - 30);
      expect(seconds).toBeLessThanOrEqual(5 * 60);
      // When that failure leaves the window, the right password signs in.
      await t.db.update(loginAttempts).set({ attemptedAt: new Date(start - 15 * 60_000 - 1000) }).where(sql`attempted_at < ${new Date(start - 60_000).toISOString()}::timestamptz`);
      expect((await attempt('chef@example.org', PASSWORD, '198.51.100.9')).status).toBe(200);
    });

    it('after failed logins no table holds a plain email or client address', async () => {
      const ips = ['203.0.113.77', '2001:db8::77'];
      for (const ip of ips) for (let i = 0; i < 3; i++) await attempt(`geraten${i}@example.org`, 'falsch!', ip);
      await call(setup, '/api/auth/setup', { method: 'POST', body: { email: 'x@example.org', password: PASSWORD, adminSecret: 'falsch' }, ip: ips[0] });
      const tables = (await t.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )) as unknown as { rows: Array<{ table_name: string }> };
      expect(tables.rows.map((r) => r.table_name)).toContain('login_attempts');
      for (const { table_name } of tables.rows) {
        const dump = JSON.stringify(((await t.db.execute(sql.raw(`select * from "${table_name}"`))) as unknown as { rows: unknown[] }).rows);
        for (const secret of [...ips, 'geraten0@example.org', 'geraten1@example.org', 'geraten2@example.org', 'x@example.org']) {
          expect(dump, `${table_name} holds ${secret}`).not.toContain(secret);
        }
      }
    });

    it("a success clears this client's earlier failures for that account, not another client's", async () => {
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', '203.0.113.1');
      for (let i = 0; i < 4; i++) await attempt('chef@example.org', 'falsch!', '203.0.113.2');
      expect((await attempt('chef@example.org', PASSWORD, '203.0.113.1')).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await attempt('chef@example.org', 'falsch!', '203.0.113.1')).status).toBe(401);
      // The other client's four failures still count: its fifth is its last.
      expect((await attempt('chef@example.org', 'falsch!', '203.0.113.2')).status).toBe(401);
      expect((await attempt('chef@example.org', PASSWORD, '203.0.113.2')).status).toBe(429);
    });
  });
});

// Setup in production (fail closed, no setup word): tests/integration/production-config.test.ts.

describe.each(databaseKinds)('setup attempts on %s (docs/decisions/012-client-keys-and-sign-in-limits.md)', (kind) => {
  const t = useTestBed({ database: kind });
  afterEach(async () => {
    await t.db.delete(loginAttempts);
  });

  const try_ = (adminSecret: string, ip: string, email = 'chef@example.org') =>
    call(setup, '/api/auth/setup', { method: 'POST', body: { email, password: PASSWORD, adminSecret }, ip });

  it('limits wrong words to 5 per address per 15 minutes: then 429 with Retry-After, even for the right word', async () => {
    for (let i = 0; i < 5; i++) expect((await try_(`falsch-${i}`, '192.0.2.50')).status).toBe(403);
    const blocked = await try_(SECRET, '192.0.2.50');
    expect(blocked.status).toBe(429);
    expect(blocked.json.type).toBe('rate-limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await t.db.select().from(users)).toEqual([]);
    // Another address is not affected; the limit does not count logins' rows either.
    expect((await try_('falsch', '192.0.2.51')).status).toBe(403);
    // Past the window the address may try again.
    await t.db.update(loginAttempts).set({ attemptedAt: new Date(Date.now() - 15 * 60_000 - 1000) });
    expect((await try_('falsch', '192.0.2.50')).status).toBe(403);
  });

  it.each([
    ['an IPv4 address and its IPv4-mapped IPv6 spelling', (i: number) => (i % 2 ? '192.0.2.80' : '::ffff:192.0.2.80')],
    ['addresses rotating inside one IPv6 /64', (i: number) => `2001:db8:9:9:${i.toString(16)}::1`],
  ])('keys the client canonically: %s count as one client', async (_what, spelling) => {
    for (let i = 0; i < 5; i++) expect((await try_(`falsch-${i}`, spelling(i))).status).toBe(403);
    expect((await try_('falsch', spelling(7))).status).toBe(429);
  });

  it('300 wrong words in a burst: at most 5 are checked, the rest get 429', async () => {
    const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => try_(`raten-${i}`, '192.0.2.60').then((r) => r.status)));
    expect(statuses.filter((s) => s === 403).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(295);
  });

  it('once an admin exists, every attempt gets the same 409 whatever the word', async () => {
    expect((await try_(SECRET, '192.0.2.70')).status).toBe(201);
    const right = await try_(SECRET, '192.0.2.71', 'zweite@example.org');
    const wrong = await try_('falsch', '192.0.2.71', 'zweite@example.org');
    expect(right.status).toBe(409);
    expect(wrong.status).toBe(409);
    expect(wrong.text).toBe(right.text);
    // and no amount of guessing turns that into a 429 that a right word would not get
    for (let i = 0; i < 8; i++) expect((await try_(`falsch-${i}`, '192.0.2.72')).status).toBe(409);
    expect((await try_(SECRET, '192.0.2.72')).status).toBe(409);
  });
});
