/**
 * The staff second factor (docs/decisions/027-staff-second-factor.md):
 * enrolment under "Mein Konto", sign-in with a code or a recovery code,
 * the practice-wide requirement, a colleague's reset, single use, clock
 * drift and the limits on code attempts.
 */
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, emailOutbox, practiceSettings, rateLimits, sessions, staffRecoveryCodes, staffSecondFactors } from '../../db/schema';
import adminSettings, { config as settingsConfig } from '../../netlify/functions/admin-settings';
import adminStats from '../../netlify/functions/admin-stats';
import adminUsers from '../../netlify/functions/admin-users';
import userSecondFactor, { config as userSecondFactorConfig } from '../../netlify/functions/admin-user-second-factor';
import login from '../../netlify/functions/auth-login';
import passwordFn from '../../netlify/functions/auth-password';
import refresh from '../../netlify/functions/auth-refresh';
import secondFactor, { config as secondFactorConfig } from '../../netlify/functions/auth-second-factor';
import sessionFn from '../../netlify/functions/auth-session';
import totp, { config as totpConfig } from '../../netlify/functions/auth-totp';
import totpConfirm, { config as confirmConfig } from '../../netlify/functions/auth-totp-confirm';
import totpSetup, { config as setupConfig } from '../../netlify/functions/auth-totp-setup';
import { randomUUID } from 'node:crypto';
import { loadFunctions } from '../../scripts/local-server';
import { generateKey, parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { asCookie, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser, totpCodeAt } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, cookieHeaderOf, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';


const adminRoutes = (await loadFunctions(path.resolve('netlify/functions'))).filter((r) => r.pattern.startsWith('/api/admin/'));

let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter}`;

describe.each(databaseKinds)('staff second factor on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'second-factor-', env: { POSTMARK_SERVER_TOKEN: '', DATA_ENCRYPTION_KEY: '', SITE_URL: 'https://praxis.example' } } });
  let clock = Date.UTC(2030, 0, 8, 9, 0, 5);
  /** Every test starts at a fresh 30-s step (codes are accepted once per step). */
  const now = () => new Date(clock);
  const advance = (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
  };

  const as = (cookie: string) => asCookie(cookie);
  const signIn = (email: string, password: string, ip = nextIp()) =>
    call(login, '/api/auth/login', { method: 'POST', body: { email, password }, ip, headers: { origin: siteOrigin() } });
  const sendCode = (pendingCookie: string, code: string, ip = nextIp()) =>
    call(secondFactor, '/api/auth/second-factor', { method: 'POST', body: { code }, ip, headers: { cookie: pendingCookie, origin: siteOrigin() } });

  /** Enrols a user through the API in their session; returns the secret and the recovery codes. */
  async function enrol(user: TestUser): Promise<{ secret: string; recovery: string[] }> {
    const api = as(user.cookie);
    const setup = await api(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
    expect(setup.status).toBe(200);
    const confirm = await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
    expect(confirm.status).toBe(200);
    advance(30);
    return { secret: setup.json.secret, recovery: confirm.json.recovery_codes };
  }

  /** Signs in with password and code; returns the session cookies. */
  async function signInWithCode(user: TestUser, code: string): Promise<string> {
    const first = await signIn(user.email, user.password);
    expect(first.status).toBe(200);
    const done = await sendCode(cookieHeaderOf(first), code);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    return cookieHeaderOf(done);
  }
  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ['Date'] });
    clock = Math.ceil((clock + 1) / 30_000) * 30_000 + 5_000;
    vi.setSystemTime(clock);
    await t.db.delete(rateLimits);
    await t.db.delete(practiceSettings);
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is routed as the API says', () => {
    expect(secondFactorConfig.path).toBe('/api/auth/second-factor');
    expect(setupConfig.path).toBe('/api/auth/totp/setup');
    expect(confirmConfig.path).toBe('/api/auth/totp/confirm');
    expect(totpConfig.path).toBe('/api/auth/totp');
    expect(userSecondFactorConfig.path).toBe('/api/admin/users/:id/second-factor');
    expect(settingsConfig.path).toBe('/api/admin/settings');
  });

  describe('enrolment', () => {
    it('shows a QR code made on the server and the secret, keeps the secret sealed, confirms with one code and hands out 10 recovery codes once', async () => {
      const user = await createAdmin(t.db);
      const other = await createAdmin(t.db, { email: `zweit-${user.email}` });
      const api = as(user.cookie);
      const setup = await api(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      expect(setup.status).toBe(200);
      expect(setup.json.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.json.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
      expect(setup.json.otpauth_url).toContain(`secret=${setup.json.secret}`);
      expect(setup.json.qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(setup.json.qr_svg).not.toMatch(/href|<script|https?:\/\/(?!www\.w3\.org)/);
      const [row] = await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id));
      expect(row!.confirmedAt).toBeNull();
      expect(row!.sealed).not.toContain(setup.json.secret);
      expect(Buffer.from(row!.sealed, 'base64url').toString('latin1')).not.toContain(setup.json.secret);

      // Not yet a factor: the password alone still signs in.
      expect((await signIn(user.email, user.password)).json.user.email).toBe(user.email);

      const wrong = await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, new Date(clock - 5 * 60_000)) } });
      expect(wrong.status).toBe(401);
      expect(wrong.json.type).toBe('invalid-code');
      expect((await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id)))[0]!.confirmedAt).toBeNull();

      const confirm = await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
      expect(confirm.status).toBe(200);
      const codes: string[] = confirm.json.recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const c of codes) expect(c).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      const stored = await t.db.select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, user.id));
      expect(stored).toHaveLength(10);
      const dump = JSON.stringify(stored);
      for (const c of codes) {
        expect(dump).not.toContain(c);
        expect(dump).not.toContain(c.replace(/-/g, ''));
      }

      // This session passed the factor and keeps working; the account's other sessions end.
      const session = await api(sessionFn, '/api/auth/session');
      expect(session.status).toBe(200);
      expect(session.json.secondFactor).toBe('passed');
      const [own] = await t.db.select().from(sessions).where(eq(sessions.id, user.sessionId));
      expect(own!.secondFactorAt).not.toBeNull();
      expect((await as(other.cookie)(sessionFn, '/api/auth/session')).status).toBe(200);
      const password = await signIn(user.email, user.password);
      const [earlier] = await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      expect(earlier!.id).toBe(user.sessionId);
      expect(password.json).toEqual({ second_factor: 'required' });

      // A second setup while one is confirmed is refused; the status shows it.
      expect((await api(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } })).status).toBe(409);
      expect((await api(totp, '/api/auth/totp')).json).toEqual({ enrolled: true, recovery_codes_left: 10, required: false });
      const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'second-factor-enrol')));
      expect(audit).toHaveLength(1);
    });
  });

  describe('sign-in', () => {
    it('answers the password with second_factor "required" and a pending cookie, no session; the code step opens the session', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const before = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));

      const first = await signIn(user.email, user.password);
      expect(first.status).toBe(200);
      expect(first.json).toEqual({ second_factor: 'required' });
      const setCookies = first.headers.getSetCookie();
      expect(setCookies).toHaveLength(1);
      expect(setCookies[0]).toMatch(/^praxis_second_factor=[^;]+; Path=\/api\/auth; HttpOnly; SameSite=Strict; Max-Age=300/);
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(before.length);
      // The pending token is no access token.
      const pendingToken = cookieHeaderOf(first).split('=')[1]!;
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: `praxis_access=${pendingToken}` } })).status).toBe(401);

      // Without the pending sign-in a right code opens nothing.
      expect((await sendCode('', totpCodeAt(secret, now()))).status).toBe(401);

      const done = await sendCode(cookieHeaderOf(first), totpCodeAt(secret, now()));
      expect(done.status).toBe(200);
      expect(done.json).toMatchObject({ user: { id: user.id, email: user.email }, isAdmin: true, secondFactor: 'passed' });
      expect(done.headers.getSetCookie().some((c) => c.startsWith('praxis_second_factor=;') && c.includes('Max-Age=0'))).toBe(true);
      const cookie = cookieHeaderOf(done);
      expect((await as(cookie)(adminStats, '/api/admin/stats')).status).toBe(200);
      const opened = await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      expect(opened.find((s) => s.id !== user.sessionId)!.secondFactorAt).not.toBeNull();

      // Refresh tokens keep working as before, and the session stays one that passed.
      const refreshed = await as(cookie)(refresh, '/api/auth/refresh', { method: 'POST' });
      expect(refreshed.status).toBe(200);
      expect(refreshed.json.secondFactor).toBe('passed');
    });

    it('refuses a pending sign-in after its five minutes', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const first = await signIn(user.email, user.password);
      advance(5 * 60 + 1);
      const late = await sendCode(cookieHeaderOf(first), totpCodeAt(secret, now()));
      expect(late.status).toBe(401);
      expect(late.json.type).toBe('unauthenticated');
    });

    it('accepts a code once: the same code again (its 30-s step) is refused, and so is an older one', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const code = totpCodeAt(secret, now());
      await signInWithCode(user, code);
      const again = await signIn(user.email, user.password);
      const replay = await sendCode(cookieHeaderOf(again), code);
      expect(replay.status).toBe(401);
      expect(replay.json.type).toBe('invalid-code');
      // The previous step's code is within the drift window but older than the accepted one.
      const older = await sendCode(cookieHeaderOf(again), totpCodeAt(secret, new Date(clock - 30_000)));
      expect(older.status).toBe(401);
      advance(30);
      await signInWithCode(user, totpCodeAt(secret, now()));
    });

    it('allows ±1 step of clock drift, no more', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      // Two steps past the one the enrolment used, so the step behind is still unused.
      advance(60);
      const first = await signIn(user.email, user.password);
      expect((await sendCode(cookieHeaderOf(first), totpCodeAt(secret, new Date(clock - 60_000)))).status).toBe(401);
      expect((await sendCode(cookieHeaderOf(first), totpCodeAt(secret, new Date(clock + 60_000)))).status).toBe(401);
      // A phone 30 s behind…
      await signInWithCode(user, totpCodeAt(secret, new Date(clock - 30_000)));
      // …and one 30 s ahead.
      await signInWithCode(user, totpCodeAt(secret, new Date(clock + 30_000)));
    });

    it('takes a recovery code instead of the code, once', async () => {
      const user = await createAdmin(t.db);
      const { recovery } = await enrol(user);
      // Typed in lower case and without dashes, it still matches.
      await signInWithCode(user, recovery[3]!.toLowerCase().replace(/-/g, ' '));
      const again = await signIn(user.email, user.password);
      const reused = await sendCode(cookieHeaderOf(again), recovery[3]!);
      expect(reused.status).toBe(401);
      expect(reused.json.type).toBe('invalid-code');
      expect(await t.db.select().from(staffRecoveryCodes).where(and(eq(staffRecoveryCodes.userId, user.id), isNull(staffRecoveryCodes.usedAt)))).toHaveLength(9);
      expect((await sendCode(cookieHeaderOf(again), recovery[4]!)).status).toBe(200);
    });

    it('keeps working through a key rotation: the secret is sealed anew with the first key at the next sign-in', async () => {
      const oldKey = generateKey();
      const newKey = generateKey();
      vi.stubEnv('DATA_ENCRYPTION_KEY', oldKey);
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const keyOf = async () => (await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id)))[0]!.keyId;
      expect(await keyOf()).toBe(parseKeyRing(oldKey).current.id);
      vi.stubEnv('DATA_ENCRYPTION_KEY', `${newKey},${oldKey}`);
      await signInWithCode(user, totpCodeAt(secret, now()));
      expect(await keyOf()).toBe(parseKeyRing(newKey).current.id);
      // The old key can go now.
      vi.stubEnv('DATA_ENCRYPTION_KEY', newKey);
      advance(30);
      await signInWithCode(user, totpCodeAt(secret, now()));
    });

    it('refuses a session the account had before it enrolled elsewhere', async () => {
      const user = await createAdmin(t.db);
      const laptop = await signIn(user.email, user.password);
      await enrol(user);
      expect((await as(cookieHeaderOf(laptop))(sessionFn, '/api/auth/session')).status).toBe(401);
      expect((await as(cookieHeaderOf(laptop))(refresh, '/api/auth/refresh', { method: 'POST' })).status).toBe(401);
    });
  });

  describe('limits', () => {
    it('limits code attempts per (account, client) and per account with 429 and Retry-After; a right code then waits too', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const ip = nextIp();
      const pending = cookieHeaderOf(await signIn(user.email, user.password, ip));
      const wrong = totpCodeAt(secret, new Date(clock - 10 * 60_000));
      for (let i = 0; i < 5; i++) expect((await sendCode(pending, wrong, ip)).status).toBe(401);
      const limited = await sendCode(pending, totpCodeAt(secret, now()), ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
      // Another connection of the same account still gets its tries, up to the account's 10.
      const ip2 = nextIp();
      const pending2 = cookieHeaderOf(await signIn(user.email, user.password, ip2));
      for (let i = 0; i < 5; i++) expect((await sendCode(pending2, wrong, ip2)).status).toBe(401);
      const third = nextIp();
      const pending3 = cookieHeaderOf(await signIn(user.email, user.password, third));
      const accountFull = await sendCode(pending3, totpCodeAt(secret, now()), third);
      expect(accountFull.status).toBe(429);
      expect(accountFull.headers.get('retry-after')).toMatch(/^\d+$/);
      // Once the window has passed the right code opens the session.
      advance(15 * 60 + 30);
      const later = cookieHeaderOf(await signIn(user.email, user.password, third));
      expect((await sendCode(later, totpCodeAt(secret, now()), third)).status).toBe(200);
    });

    it('counts confirmation codes of an enrolment too', async () => {
      const user = await createAdmin(t.db);
      const api = as(user.cookie);
      const setup = await api(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      for (let i = 0; i < 5; i++) {
        expect((await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: '000000' } })).status).toBe(401);
      }
      const limited = await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('Zwei-Faktor-Pflicht', () => {
    it('sends an account without a factor to enrolment right after the password, refuses everything else until it has enrolled', async () => {
      const chief = await createAdmin(t.db);
      // The switch needs its own user to have a factor.
      const early = await as(chief.cookie)(adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: true } });
      expect(early.status).toBe(409);
      await enrol(chief);
      expect((await as(chief.cookie)(adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: 'ja' } })).status).toBe(400);
      const on = await as(chief.cookie)(adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: true } });
      expect(on.status).toBe(200);
      expect(on.json).toMatchObject({ require_second_factor: true });
      expect((await as(chief.cookie)(adminSettings, '/api/admin/settings')).json).toMatchObject({ require_second_factor: true });

      const colleague = await createAdmin(t.db);
      const password = await signIn(colleague.email, colleague.password);
      expect(password.status).toBe(200);
      expect(password.json.secondFactor).toBe('enrolment-required');
      const api = as(cookieHeaderOf(password));
      for (const [handler, p, init] of [
        [adminStats, '/api/admin/stats', {}],
        [adminUsers, '/api/admin/users', {}],
        [adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: false } }],
        [passwordFn, '/api/auth/password', { method: 'POST', body: { currentPassword: colleague.password, newPassword: 'ein-neues-passwort-42' } }],
        [totp, '/api/auth/totp', { method: 'DELETE', body: { code: 'AAAA-AAAA-AAAA-AAAA' } }],
      ] as const) {
        const res = await api(handler, p, init as never);
        expect(res.status, p).toBe(403);
        expect(res.json.type).toBe('second-factor-enrolment-required');
      }
      expect((await t.db.select().from(practiceSettings))[0]!.requireSecondFactor).toBe(true);
      // What enrolment needs stays open.
      const session = await api(sessionFn, '/api/auth/session');
      expect(session.status).toBe(200);
      expect(session.json.secondFactor).toBe('enrolment-required');
      expect((await api(totp, '/api/auth/totp')).json).toMatchObject({ enrolled: false, required: true });
      const setup = await api(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: colleague.password } });
      expect(setup.status).toBe(200);
      const confirm = await api(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
      expect(confirm.status).toBe(200);
      expect((await api(adminStats, '/api/admin/stats')).status).toBe(200);
      expect((await api(sessionFn, '/api/auth/session')).json.secondFactor).toBe('passed');

      const off = await as(chief.cookie)(adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: false } });
      expect(off.status).toBe(200);
      const entries = await t.db.select().from(auditLog).where(and(eq(auditLog.entity, 'settings'), eq(auditLog.userId, chief.id)));
      expect(entries.map((e) => e.label)).toEqual(['Zwei-Faktor-Pflicht an', 'Zwei-Faktor-Pflicht aus']);
    });
  });

  it('every /api/admin/* endpoint, found in netlify/functions, refuses an account that must still enrol', async () => {
    const chief = await createAdmin(t.db);
    await enrol(chief);
    await t.db.insert(practiceSettings).values({ id: true, requireSecondFactor: true });
    const colleague = await createAdmin(t.db);
    expect(adminRoutes.length).toBeGreaterThan(15);
    let checked = 0;
    for (const route of adminRoutes) {
      const p = route.pattern.replace(/:(\w+)/g, () => randomUUID());
      const params = Object.fromEntries([...route.pattern.matchAll(/:(\w+)/g)].map((m, i) => [m[1]!, p.split('/')[route.pattern.split('/').indexOf(`:${m[1]}`)] ?? String(i)]));
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await call(route.handler, p, { method, params, body: method === 'GET' ? undefined : {}, headers: { cookie: colleague.cookie, origin: siteOrigin() } });
        if (res.status === 405) continue;
        checked++;
        expect(res.status, `${method} ${route.pattern}`).toBe(403);
        expect(res.json.type, `${method} ${route.pattern}`).toBe('second-factor-enrolment-required');
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  describe('reset', () => {
    it('lets an admin reset a colleague’s factor: 204, audited, the colleague emailed and signed out; never one’s own', async () => {
      const chief = await createAdmin(t.db);
      const colleague = await createAdmin(t.db);
      const { secret } = await enrol(colleague);
      const { secret: chiefSecret } = await enrol(chief);
      void chiefSecret;

      const own = await as(chief.cookie)(userSecondFactor, `/api/admin/users/${chief.id}/second-factor`, { method: 'DELETE', params: { id: chief.id } });
      expect(own.status).toBe(403);
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, chief.id))).toHaveLength(1);

      const colleagueSession = await signInWithCode(colleague, totpCodeAt(secret, now()));
      const res = await as(chief.cookie)(userSecondFactor, `/api/admin/users/${colleague.id}/second-factor`, { method: 'DELETE', params: { id: colleague.id } });
      expect(res.status).toBe(204);
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, colleague.id))).toHaveLength(0);
      expect(await t.db.select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, colleague.id))).toHaveLength(0);
      expect((await as(colleagueSession)(sessionFn, '/api/auth/session')).status).toBe(401);
      const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'second-factor-reset'), eq(auditLog.entityId, colleague.id)));
      expect(entry).toMatchObject({ userId: chief.id, entity: 'user', label: colleague.email });
      const mails = (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === colleague.email && m.subject.includes('zurückgesetzt'));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('Zwei-Faktor');
      expect(mails[0]!.text).toContain(chief.email);
      expect(mails[0]!.text).toContain('https://praxis.example/admin/konto');

      // The password alone signs the colleague in again, to enrol anew.
      const back = await signIn(colleague.email, colleague.password);
      expect(back.json.secondFactor).toBe('none');

      const again = await as(chief.cookie)(userSecondFactor, `/api/admin/users/${colleague.id}/second-factor`, { method: 'DELETE', params: { id: colleague.id } });
      expect(again.status).toBe(409);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await as(chief.cookie)(userSecondFactor, `/api/admin/users/${unknown}/second-factor`, { method: 'DELETE', params: { id: unknown } })).status).toBe(404);
      const foreign = await call(userSecondFactor, `/api/admin/users/${colleague.id}/second-factor`, {
        method: 'DELETE',
        params: { id: colleague.id },
        headers: { cookie: chief.cookie, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
    });

    it('removes one’s own factor only with a recovery code', async () => {
      const user = await createAdmin(t.db);
      const { secret, recovery } = await enrol(user);
      const api = as(user.cookie);
      const withCode = await api(totp, '/api/auth/totp', { method: 'DELETE', body: { code: totpCodeAt(secret, now()) } });
      expect(withCode.status).toBe(401);
      expect(withCode.json.type).toBe('invalid-code');
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id))).toHaveLength(1);
      expect((await api(totp, '/api/auth/totp', { method: 'DELETE', body: { code: recovery[0]! } })).status).toBe(204);
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id))).toHaveLength(0);
      expect((await signIn(user.email, user.password)).json.secondFactor).toBe('none');
    });
  });

  describe('the owner is emailed of every change (docs/decisions/041)', () => {
    const mailsTo = async (email: string) => {
      await settled();
      return (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === email);
    };

    it('a factor set up, a recovery code used at sign-in (with how many are left), the factor removed: who, what, when, never a code', async () => {
      const user = await createAdmin(t.db);
      const { recovery, secret } = await enrol(user);
      const first = await mailsTo(user.email);
      expect(first.map((m) => m.subject)).toEqual(['Zwei-Faktor-Anmeldung eingerichtet – Praxis-Verwaltung']);
      expect(first[0]!.text).toContain(`für Ihr Konto der Praxis-Verwaltung (${user.email}) wurde die Zwei-Faktor-Anmeldung mit einer Authenticator-App eingerichtet.`);
      expect(first[0]!.text).toContain('Zeitpunkt: Dienstag, 8. Januar 2030 um');
      expect(first[0]!.text).toContain('Wenn Sie das nicht selbst waren');
      for (const secretValue of [secret, ...recovery]) expect(first[0]!.text + first[0]!.html).not.toContain(secretValue);

      // A six-digit code at sign-in sends nothing; a recovery code does.
      await signInWithCode(user, totpCodeAt(secret, now()));
      expect(await mailsTo(user.email)).toHaveLength(1);
      await signInWithCode(user, recovery[2]!);
      const used = (await mailsTo(user.email)).filter((m) => m.subject.startsWith('Wiederherstellungscode verwendet'));
      expect(used).toHaveLength(1);
      expect(used[0]!.text).toContain('wurde ein Wiederherstellungscode verwendet.');
      expect(used[0]!.text).toContain('Ihnen bleiben noch 9.');
      expect(used[0]!.text + used[0]!.html).not.toContain(recovery[2]!);

      // Removing the factor (which takes a recovery code) says so once, as the removal.
      await as(user.cookie)(totp, '/api/auth/totp', { method: 'DELETE', body: { code: recovery[0]! } });
      const all = (await mailsTo(user.email)).map((m) => m.subject);
      expect(all.filter((s) => s.startsWith('Zwei-Faktor-Anmeldung entfernt'))).toHaveLength(1);
      expect(all.filter((s) => s.startsWith('Wiederherstellungscode verwendet'))).toHaveLength(1);
      expect(new Set((await t.db.select({ audience: emailOutbox.audience }).from(emailOutbox).where(eq(emailOutbox.kind, 'account-totp-removed'))).map((r) => r.audience))).toEqual(new Set(['staff']));
    });

    it('a wrong code sends no such notice', async () => {
      const user = await createAdmin(t.db);
      await enrol(user);
      const first = await signIn(user.email, user.password);
      expect((await sendCode(cookieHeaderOf(first), 'ABCD-EFGH-JKMN-PQRS')).status).toBe(401);
      expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual(['Zwei-Faktor-Anmeldung eingerichtet – Praxis-Verwaltung']);
    });
  });
});
