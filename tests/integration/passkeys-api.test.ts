/**
 * Passkeys (docs/decisions/037-passkeys-sessions-guessing.md): registration
 * under "Mein Konto" after the current password, sign-in with a passkey as
 * both factors, the counter, removal, a colleague's reset and the
 * practice's requirement, with a software authenticator
 * (tests/helpers/webauthn.ts) standing in for the browser.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, authChallenges, emailOutbox, practiceSettings, rateLimits, sessions, staffPasskeys, staffSecondFactors } from '../../db/schema';
import { readOutbox } from '../helpers/eml';
import adminSettings from '../../netlify/functions/admin-settings';
import adminStats from '../../netlify/functions/admin-stats';
import userSecondFactor from '../../netlify/functions/admin-user-second-factor';
import login from '../../netlify/functions/auth-login';
import passkeyItem, { config as itemConfig } from '../../netlify/functions/auth-passkey';
import loginOptions, { config as loginOptionsConfig } from '../../netlify/functions/auth-passkey-login-options';
import loginVerify, { config as loginVerifyConfig } from '../../netlify/functions/auth-passkey-login-verify';
import registerOptions, { config as registerOptionsConfig } from '../../netlify/functions/auth-passkey-register-options';
import registerVerify, { config as registerVerifyConfig } from '../../netlify/functions/auth-passkey-register-verify';
import passkeys, { config as listConfig } from '../../netlify/functions/auth-passkeys';
import secondFactor from '../../netlify/functions/auth-second-factor';
import sessionFn from '../../netlify/functions/auth-session';
import totpConfirm from '../../netlify/functions/auth-totp-confirm';
import totpSetup from '../../netlify/functions/auth-totp-setup';
import { asCookie, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser, totpCodeAt } from '../helpers/auth';
import { call, cookieHeaderOf, settled } from '../helpers/http';
import { SoftAuthenticator } from '../helpers/webauthn';
import { databaseKinds, useTestBed } from '../setup/test-bed';

type Res = Awaited<ReturnType<typeof call>>;

let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(databaseKinds)('passkeys on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'passkeys-', env: { POSTMARK_SERVER_TOKEN: '', DATA_ENCRYPTION_KEY: '', SITE_URL: 'https://praxis.example' } } });
  let clock = Date.UTC(2030, 2, 4, 9, 0, 5);
  const now = () => new Date(clock);
  const advance = (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
  };

  const as = (cookie: string) => asCookie(cookie, { 'user-agent': CHROME });

  /** Registers a passkey for the user through the API; returns the authenticator holding it and the answer. */
  async function addPasskey(user: TestUser, name = 'Laptop', cookie = user.cookie): Promise<{ authenticator: SoftAuthenticator; res: Res }> {
    const authenticator = new SoftAuthenticator(siteOrigin());
    const options = await as(cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: user.password } });
    expect(options.status, JSON.stringify(options.json)).toBe(200);
    const res = await as(cookie)(registerVerify, '/api/auth/passkey/register/verify', { method: 'POST', body: { name, response: authenticator.register(options.json) } });
    return { authenticator, res };
  }

  /** "Mit Passkey anmelden": options, then the authenticator's answer with the options' cookie. */
  async function passkeySignIn(authenticator: SoftAuthenticator, tweaks: Parameters<SoftAuthenticator['authenticate']>[1] = {}): Promise<Res> {
    const options = await call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip: nextIp(), headers: { origin: siteOrigin() } });
    expect(options.status).toBe(200);
    return call(loginVerify, '/api/auth/passkey/login/verify', {
      method: 'POST',
      body: authenticator.authenticate(options.json, tweaks),
      headers: { cookie: cookieHeaderOf(options), origin: siteOrigin(), 'user-agent': CHROME },
    });
  }

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    clock = Math.ceil((clock + 1) / 30_000) * 30_000 + 5_000;
    vi.setSystemTime(clock);
    await t.db.delete(rateLimits);
    await t.db.delete(practiceSettings);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is routed as the API says', () => {
    expect(registerOptionsConfig.path).toBe('/api/auth/passkey/register/options');
    expect(registerVerifyConfig.path).toBe('/api/auth/passkey/register/verify');
    expect(loginOptionsConfig.path).toBe('/api/auth/passkey/login/options');
    expect(loginVerifyConfig.path).toBe('/api/auth/passkey/login/verify');
    expect(listConfig.path).toBe('/api/auth/passkeys');
    expect(itemConfig.path).toBe('/api/auth/passkeys/:id');
  });

  describe('registration', () => {
    it('needs a session and the current password; the options name the site as relying party and ask for user verification', async () => {
      const user = await createAdmin(t.db);
      expect((await call(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: user.password }, headers: { origin: siteOrigin() } })).status).toBe(401);
      const none = await as(user.cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: {} });
      expect(none.status).toBe(401);
      expect(none.json.type).toBe('wrong-password');
      const wrong = await as(user.cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: 'falsch-falsch-falsch' } });
      expect(wrong.status).toBe(401);
      expect(wrong.json.type).toBe('wrong-password');
      expect(await t.db.select().from(authChallenges).where(eq(authChallenges.userId, user.id))).toHaveLength(0);

      const options = await as(user.cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: user.password } });
      expect(options.status).toBe(200);
      expect(options.json.rp).toMatchObject({ id: 'praxis.example' });
      expect(options.json.user.name).toBe(user.email);
      expect(options.json.challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(options.json.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
      const [challenge] = await t.db.select().from(authChallenges).where(eq(authChallenges.userId, user.id));
      expect(challenge).toMatchObject({ purpose: 'passkey-register', sessionId: user.sessionId, challenge: options.json.challenge, usedAt: null });
    });

    it('keeps the passkey under its name with credential id, key, counter and transports; answers without the key; audited', async () => {
      const user = await createAdmin(t.db);
      const { res } = await addPasskey(user, 'Praxis-PC Empfang');
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toEqual({ id: expect.any(String), name: 'Praxis-PC Empfang', created_at: now().toISOString(), last_used_at: null });
      const [row] = await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, user.id));
      expect(row).toMatchObject({ name: 'Praxis-PC Empfang', counter: 0, transports: ['internal'] });
      expect(row!.credentialId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row!.publicKey.length).toBeGreaterThan(60);
      const list = await as(user.cookie)(passkeys, '/api/auth/passkeys');
      expect(list.json).toEqual([res.json]);
      expect(list.text).not.toContain(row!.publicKey);
      expect(list.text).not.toContain(row!.credentialId);
      const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'passkey-add')));
      expect(entry!.label).toBe(`${user.email}: Praxis-PC Empfang`);
    });

    it('refuses an answer from another origin, for another relying party, without user verification, to a used, expired or another session’s challenge', async () => {
      const user = await createAdmin(t.db);
      const laptop = await createAdmin(t.db);
      const api = as(user.cookie);
      const options = async () => (await api(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: user.password } })).json;
      const verify = (body: unknown, cookie = user.cookie) => as(cookie)(registerVerify, '/api/auth/passkey/register/verify', { method: 'POST', body });
      const refused = async (res: Res) => {
        expect(res.status, JSON.stringify(res.json)).toBe(400);
        expect(res.json.errors.response).toEqual(['errors.passkeyInvalid']);
      };
      const a = new SoftAuthenticator(siteOrigin());
      await refused(await verify({ name: 'x', response: a.register(await options(), { origin: 'https://evil.example' }) }));
      await refused(await verify({ name: 'x', response: a.register(await options(), { rpId: 'evil.example' }) }));
      await refused(await verify({ name: 'x', response: a.register(await options(), { userVerified: false }) }));
      // A challenge never issued.
      await refused(await verify({ name: 'x', response: a.register(await options(), { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) }));
      // Another session of another account cannot finish this session's registration.
      await refused(await verify({ name: 'x', response: a.register(await options()) }, laptop.cookie));
      // Expired.
      const late = a.register(await options());
      advance(5 * 60 + 1);
      await refused(await verify({ name: 'x', response: late }));
      // Used: the same answer twice.
      const once = a.register(await options());
      expect((await verify({ name: 'einmal', response: once })).status).toBe(200);
      await refused(await verify({ name: 'zweimal', response: once }));
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, user.id))).toHaveLength(1);
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, laptop.id))).toHaveLength(0);
      // The name follows the admin text rules.
      const badName = await verify({ name: 'Laptop\u202e', response: a.register(await options()) });
      expect(badName.status).toBe(400);
      expect(badName.json.errors.name).toBeDefined();
    });

    it('asks an account with TOTP for a code as well; a first passkey makes this session pass and ends the account’s other sessions', async () => {
      const withTotp = await createAdmin(t.db);
      const setup = await as(withTotp.cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: withTotp.password } });
      expect((await as(withTotp.cookie)(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } })).status).toBe(200);
      advance(30);
      const noCode = await as(withTotp.cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: withTotp.password } });
      expect(noCode.status).toBe(401);
      expect(noCode.json.type).toBe('invalid-code');
      const withCode = await as(withTotp.cookie)(registerOptions, '/api/auth/passkey/register/options', {
        method: 'POST',
        body: { password: withTotp.password, code: totpCodeAt(setup.json.secret, now()) },
      });
      expect(withCode.status).toBe(200);

      const user = await createAdmin(t.db);
      const phone = await call(login, '/api/auth/login', { method: 'POST', body: { email: user.email, password: user.password }, headers: { origin: siteOrigin() } });
      expect((await addPasskey(user)).res.status).toBe(200);
      expect((await as(user.cookie)(sessionFn, '/api/auth/session')).json.secondFactor).toBe('passed');
      expect((await as(cookieHeaderOf(phone))(sessionFn, '/api/auth/session')).status).toBe(401);
      // The password alone no longer opens a session.
      const again = await call(login, '/api/auth/login', { method: 'POST', body: { email: user.email, password: user.password }, headers: { origin: siteOrigin() } });
      expect(again.json).toEqual({ second_factor: 'required' });
    });
  });

  describe('sign-in', () => {
    it('signs in with the passkey alone (user verification: both factors), no code step; the counter and last use are kept', async () => {
      const user = await createAdmin(t.db);
      const { authenticator } = await addPasskey(user);
      advance(60);
      const options = await call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip: nextIp(), headers: { origin: siteOrigin() } });
      expect(options.status).toBe(200);
      expect(options.json).toMatchObject({ rpId: 'praxis.example', userVerification: 'required' });
      expect(options.json.allowCredentials ?? []).toEqual([]);
      expect(options.headers.getSetCookie()[0]).toMatch(/^praxis_passkey=[0-9a-f-]{36}; Path=\/api\/auth; HttpOnly; SameSite=Strict; Max-Age=300/);
      const res = await call(loginVerify, '/api/auth/passkey/login/verify', {
        method: 'POST',
        body: authenticator.authenticate(options.json),
        headers: { cookie: cookieHeaderOf(options), origin: siteOrigin(), 'user-agent': CHROME },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toMatchObject({ user: { id: user.id, email: user.email }, isAdmin: true, secondFactor: 'passed' });
      const cookie = cookieHeaderOf(res);
      expect(cookie).toMatch(/praxis_access=.+; praxis_refresh=/);
      expect((await as(cookie)(adminStats, '/api/admin/stats')).status).toBe(200);
      const [row] = await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, user.id));
      expect(row).toMatchObject({ counter: 1, lastUsedAt: now() });
      const opened = await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      const fresh = opened.find((s) => s.id !== user.sessionId)!;
      expect(fresh).toMatchObject({ secondFactorAt: now(), userAgent: CHROME });
      expect((await as(user.cookie)(passkeys, '/api/auth/passkeys')).json[0].last_used_at).toBe(now().toISOString());
    });

    it('refuses without the options’ cookie, with a spent one, a counter that did not grow, no user verification, a foreign origin or an unknown passkey', async () => {
      const user = await createAdmin(t.db);
      const { authenticator } = await addPasskey(user);
      const verify = (body: unknown, cookie: string) =>
        call(loginVerify, '/api/auth/passkey/login/verify', { method: 'POST', body, headers: { cookie, origin: siteOrigin() } });
      const optionsFor = () => call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip: nextIp(), headers: { origin: siteOrigin() } });
      const refused = (res: Res) => {
        expect(res.status, JSON.stringify(res.json)).toBe(401);
        expect(res.json.type).toBe('unauthenticated');
      };

      const o1 = await optionsFor();
      refused(await verify(authenticator.authenticate(o1.json), ''));
      // The cookie is single use: once it signed in, the same cookie (with a fresh assertion) is refused.
      const o2 = await optionsFor();
      expect((await verify(authenticator.authenticate(o2.json), cookieHeaderOf(o2))).status).toBe(200);
      refused(await verify(authenticator.authenticate(o2.json), cookieHeaderOf(o2)));
      // A counter that did not grow (a cloned authenticator).
      refused(await passkeySignIn(authenticator, { counter: 1 }));
      refused(await passkeySignIn(authenticator, { userVerified: false }));
      refused(await passkeySignIn(authenticator, { origin: 'https://evil.example' }));
      // Another key under the registered credential's id; a credential nobody registered.
      refused(await passkeySignIn(strangerWith(authenticator)));
      const unknown = strangerWith(authenticator);
      unknown.credentials[0]!.id = 'Q'.repeat(43);
      refused(await passkeySignIn(unknown));
      // None of these moved the counter: the next real sign-in works.
      expect((await passkeySignIn(authenticator)).status).toBe(200);
    });

    it('is limited per client (options store a challenge each)', async () => {
      const ip = nextIp();
      for (let i = 0; i < 30; i++) expect((await call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip, headers: { origin: siteOrigin() } })).status).toBe(200);
      const limited = await call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip, headers: { origin: siteOrigin() } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('removal', () => {
    it('removes one’s own passkey only with the password or a fresh code (audited); a removed passkey no longer signs in', async () => {
      const user = await createAdmin(t.db);
      const other = await createAdmin(t.db);
      const { authenticator, res } = await addPasskey(user, 'Handy');
      const id = res.json.id as string;
      const remove = (body: unknown, cookie = user.cookie) => as(cookie)(passkeyItem, `/api/auth/passkeys/${id}`, { method: 'DELETE', params: { id }, body });
      const none = await remove({});
      expect(none.status).toBe(401);
      expect(none.json.type).toBe('wrong-password');
      expect((await remove({ password: 'nicht-das-passwort' })).status).toBe(401);
      expect((await remove({ code: '123456' })).status).toBe(401);
      // Another account cannot remove it, whatever it proves.
      expect((await remove({ password: other.password }, other.cookie)).status).toBe(404);
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.id, id))).toHaveLength(1);

      expect((await remove({ password: user.password })).status).toBe(204);
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.id, id))).toHaveLength(0);
      const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'passkey-remove')));
      expect(entry!.label).toBe(`${user.email}: Handy`);
      const after = await passkeySignIn(authenticator);
      expect(after.status).toBe(401);
      expect((await remove({ password: user.password })).status).toBe(404);
    });

    it('emails its owner when a passkey is added and when it is removed: account, which passkey, when; no secret (docs/decisions/041)', async () => {
      const user = await createAdmin(t.db);
      const { res } = await addPasskey(user, 'Empfang PC 2');
      expect(res.status).toBe(200);
      const id = res.json.id as string;
      await settled();
      const added = (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === user.email);
      expect(added.map((m) => m.subject)).toEqual(['Passkey hinzugefügt – Praxis-Verwaltung']);
      expect(added[0]!.text).toContain(`für Ihr Konto der Praxis-Verwaltung (${user.email}) wurde ein Passkey hinzugefügt („Empfang PC 2“).`);
      expect(added[0]!.text).toMatch(/Zeitpunkt: .*2030.* Uhr\./);
      expect(added[0]!.text).toContain('Wenn Sie das nicht selbst waren, sagen Sie es bitte sofort einer Administratorin oder einem Administrator der Praxis');
      const [key] = await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.id, id));
      expect(added[0]!.text + added[0]!.html).not.toContain(key!.publicKey);
      expect(added[0]!.text + added[0]!.html).not.toContain(key!.credentialId);
      await as(user.cookie)(passkeyItem, `/api/auth/passkeys/${id}`, { method: 'DELETE', params: { id }, body: { password: user.password } });
      await settled();
      const all = (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === user.email).map((m) => m.subject);
      expect(all.sort()).toEqual(['Passkey entfernt – Praxis-Verwaltung', 'Passkey hinzugefügt – Praxis-Verwaltung']);
      // Queued as staff mail.
      expect((await t.db.select({ audience: emailOutbox.audience, kind: emailOutbox.kind }).from(emailOutbox)).filter((r) => r.kind.startsWith('account-passkey'))).toEqual(
        expect.arrayContaining([
          { audience: 'staff', kind: 'account-passkey-added' },
          { audience: 'staff', kind: 'account-passkey-removed' },
        ]),
      );
    });
  });

  describe('a colleague’s reset and the requirement', () => {
    it('an admin’s reset removes TOTP and passkeys alike (a passkey-only account too)', async () => {
      const chief = await createAdmin(t.db);
      const colleague = await createAdmin(t.db);
      const setup = await as(colleague.cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: colleague.password } });
      await as(colleague.cookie)(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
      advance(30);
      const { authenticator } = await (async () => {
        const a = new SoftAuthenticator(siteOrigin());
        const o = await as(colleague.cookie)(registerOptions, '/api/auth/passkey/register/options', {
          method: 'POST',
          body: { password: colleague.password, code: totpCodeAt(setup.json.secret, now()) },
        });
        expect((await as(colleague.cookie)(registerVerify, '/api/auth/passkey/register/verify', { method: 'POST', body: { name: 'Handy', response: a.register(o.json) } })).status).toBe(200);
        return { authenticator: a };
      })();
      const reset = (id: string) => as(chief.cookie)(userSecondFactor, `/api/admin/users/${id}/second-factor`, { method: 'DELETE', params: { id } });
      expect((await reset(colleague.id)).status).toBe(204);
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, colleague.id))).toHaveLength(0);
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, colleague.id))).toHaveLength(0);
      expect((await passkeySignIn(authenticator)).status).toBe(401);

      const passkeyOnly = await createAdmin(t.db);
      await addPasskey(passkeyOnly);
      expect((await reset(passkeyOnly.id)).status).toBe(204);
      expect(await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, passkeyOnly.id))).toHaveLength(0);
      expect((await reset(passkeyOnly.id)).status).toBe(409);
    });

    it('"second factor required for all" is met by a passkey: it lets its admin switch the requirement on, and enrols a colleague', async () => {
      const chief = await createAdmin(t.db);
      await addPasskey(chief);
      const on = await as(chief.cookie)(adminSettings, '/api/admin/settings', { method: 'PUT', body: { require_second_factor: true } });
      expect(on.status).toBe(200);

      const colleague = await createAdmin(t.db);
      const password = await call(login, '/api/auth/login', { method: 'POST', body: { email: colleague.email, password: colleague.password }, headers: { origin: siteOrigin() } });
      expect(password.json.secondFactor).toBe('enrolment-required');
      const cookie = cookieHeaderOf(password);
      expect((await as(cookie)(adminStats, '/api/admin/stats')).status).toBe(403);
      // Enrolment is open to it: a passkey is a factor.
      const { res } = await addPasskey(colleague, 'Laptop', cookie);
      expect(res.status).toBe(200);
      expect((await as(cookie)(sessionFn, '/api/auth/session')).json.secondFactor).toBe('passed');
      expect((await as(cookie)(adminStats, '/api/admin/stats')).status).toBe(200);
      // A passkey-only account signs in with its passkey; the password step asks for the second factor.
      const again = await call(login, '/api/auth/login', { method: 'POST', body: { email: colleague.email, password: colleague.password }, headers: { origin: siteOrigin() } });
      expect(again.json).toEqual({ second_factor: 'required' });
      // Its code step has nothing to take: no code opens it.
      expect((await call(secondFactor, '/api/auth/second-factor', { method: 'POST', body: { code: '123456' }, headers: { cookie: cookieHeaderOf(again), origin: siteOrigin() } })).status).toBe(401);
    });
  });
});

/** An authenticator holding a key nobody registered, presented under the registered credential's id. */
function strangerWith(registered: SoftAuthenticator): SoftAuthenticator {
  const stranger = new SoftAuthenticator(siteOrigin());
  stranger.register({
    rp: { id: 'praxis.example', name: 'x' },
    user: { id: registered.credentials[0]!.userHandle, name: 'x', displayName: 'x' },
    challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
    pubKeyCredParams: [],
  });
  stranger.credentials[0]!.id = registered.credentials[0]!.id;
  return stranger;
}
