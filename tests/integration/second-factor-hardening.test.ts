/**
 * The second factor hardened (docs/decisions/037-passkeys-sessions-guessing.md):
 * setting it up needs the current password; a setup belongs to the
 * session that started it; the half-signed-in cookie is single use; wrong
 * codes alert the owner and, at 30 a day, close the code step until the
 * password is reset by its emailed link (a recovery code or a passkey
 * still signs in).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, emailOutbox, rateLimits, sessions, staffSecondFactors, users } from '../../db/schema';
import forgot from '../../netlify/functions/auth-forgot';
import login from '../../netlify/functions/auth-login';
import logout from '../../netlify/functions/auth-logout';
import loginOptions from '../../netlify/functions/auth-passkey-login-options';
import loginVerify from '../../netlify/functions/auth-passkey-login-verify';
import registerOptions from '../../netlify/functions/auth-passkey-register-options';
import registerVerify from '../../netlify/functions/auth-passkey-register-verify';
import passwordFn from '../../netlify/functions/auth-password';
import reset from '../../netlify/functions/auth-reset';
import secondFactor from '../../netlify/functions/auth-second-factor';
import sessionFn from '../../netlify/functions/auth-session';
import totpConfirm from '../../netlify/functions/auth-totp-confirm';
import totpSetup from '../../netlify/functions/auth-totp-setup';
import { asCookie, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser, totpCodeAt } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled, cookieHeaderOf } from '../helpers/http';
import { SoftAuthenticator } from '../helpers/webauthn';
import { databaseKinds, useTestBed } from '../setup/test-bed';


let ipCounter = 0;
const nextIp = () => `192.0.2.${(++ipCounter % 250) + 1}`;

describe.each(databaseKinds)('second factor hardened on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'hardening-', env: { POSTMARK_SERVER_TOKEN: '', DATA_ENCRYPTION_KEY: '', SITE_URL: 'https://praxis.example' } } });
  let clock = Date.UTC(2030, 5, 3, 7, 0, 5);
  const now = () => new Date(clock);
  const advance = (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
  };
  const as = (cookie: string) => asCookie(cookie);
  const signIn = (user: TestUser, ip = nextIp()) =>
    call(login, '/api/auth/login', { method: 'POST', body: { email: user.email, password: user.password }, ip, headers: { origin: siteOrigin() } });
  const sendCode = (pending: string, code: string, ip = nextIp()) =>
    call(secondFactor, '/api/auth/second-factor', { method: 'POST', body: { code }, ip, headers: { cookie: pending, origin: siteOrigin() } });

  async function enrol(user: TestUser, cookie = user.cookie): Promise<{ secret: string; recovery: string[] }> {
    const setup = await as(cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
    expect(setup.status, JSON.stringify(setup.json)).toBe(200);
    const confirm = await as(cookie)(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(setup.json.secret, now()) } });
    expect(confirm.status).toBe(200);
    advance(30);
    return { secret: setup.json.secret, recovery: confirm.json.recovery_codes };
  }

  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ['Date'] });
    clock = Math.ceil((clock + 24 * 60 * 60 * 1000) / 30_000) * 30_000 + 5_000;
    vi.setSystemTime(clock);
    await t.db.delete(rateLimits);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  describe('setting up a factor', () => {
    it('needs the current password: 401 without it or with a wrong one, limited per account', async () => {
      const user = await createAdmin(t.db);
      const setup = (body: unknown) => as(user.cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body });
      const none = await setup({});
      expect(none.status).toBe(401);
      expect(none.json.type).toBe('wrong-password');
      expect(await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id))).toHaveLength(0);
      for (let i = 0; i < 5; i++) expect((await setup({ password: `falsch-${i}-falsch-falsch` })).status).toBe(401);
      const limited = await setup({ password: user.password });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      advance(15 * 60 + 1);
      // (The access token has expired meanwhile: a fresh sign-in.)
      const fresh = cookieHeaderOf(await signIn(user));
      expect((await as(fresh)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } })).status).toBe(200);
    });

    it('belongs to the session that started it: another session can neither replace nor confirm it until that session ends', async () => {
      const user = await createAdmin(t.db);
      const laptop = cookieHeaderOf(await signIn(user));
      const first = await as(user.cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      expect(first.status).toBe(200);
      const replace = await as(laptop)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      expect(replace.status).toBe(409);
      const confirmElsewhere = await as(laptop)(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(first.json.secret, now()) } });
      expect(confirmElsewhere.status).toBe(409);
      const [row] = await t.db.select().from(staffSecondFactors).where(eq(staffSecondFactors.userId, user.id));
      expect(row).toMatchObject({ confirmedAt: null, sessionId: user.sessionId });
      // The session that started it may start it anew.
      const again = await as(user.cookie)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      expect(again.status).toBe(200);
      // Once that session has ended, another one may begin.
      expect((await as(user.cookie)(logout, '/api/auth/logout', { method: 'POST' })).status).toBe(204);
      const taken = await as(laptop)(totpSetup, '/api/auth/totp/setup', { method: 'POST', body: { password: user.password } });
      expect(taken.status).toBe(200);
      expect((await as(laptop)(totpConfirm, '/api/auth/totp/confirm', { method: 'POST', body: { code: totpCodeAt(taken.json.secret, now()) } })).status).toBe(200);
    });
  });

  describe('the half-signed-in cookie', () => {
    it('is single use: once it opened a session, a second code step with it is 401, whatever the code', async () => {
      const user = await createAdmin(t.db);
      const { secret, recovery } = await enrol(user);
      const pending = cookieHeaderOf(await signIn(user));
      // A typo keeps it usable.
      expect((await sendCode(pending, '000000')).json.type).toBe('invalid-code');
      expect((await sendCode(pending, totpCodeAt(secret, now()))).status).toBe(200);
      advance(30);
      const second = await sendCode(pending, totpCodeAt(secret, now()));
      expect(second.status).toBe(401);
      expect(second.json.type).toBe('unauthenticated');
      expect((await sendCode(pending, recovery[0]!)).status).toBe(401);
      // The recovery code was not spent by the refused step.
      const fresh = cookieHeaderOf(await signIn(user));
      expect((await sendCode(fresh, recovery[0]!)).status).toBe(200);
      expect((await sendCode(fresh, recovery[1]!)).status).toBe(401);
    });

    it('is void once the password is reset by its link', async () => {
      const user = await createAdmin(t.db);
      const { secret } = await enrol(user);
      const pending = cookieHeaderOf(await signIn(user));
      await resetByLink(user, 'ein-ganz-neues-passwort-2030');
      const res = await sendCode(pending, totpCodeAt(secret, now()));
      expect(res.status).toBe(401);
      expect(res.json.type).toBe('unauthenticated');
    });
  });

  /** "Passwort vergessen", then the link from the outbox. */
  async function resetByLink(user: TestUser, password: string): Promise<void> {
    expect((await call(forgot, '/api/auth/forgot', { method: 'POST', body: { email: user.email }, ip: nextIp(), headers: { origin: siteOrigin() } })).status).toBe(202);
    await settled();
    const mail = (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === user.email && /auth\/reset\?token=/.test(m.text)).at(-1)!;
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const res = await call(reset, '/api/auth/reset', { method: 'POST', body: { token, password }, ip: nextIp(), headers: { origin: siteOrigin() } });
    expect(res.status, JSON.stringify(res.json)).toBe(204);
    user.password = password;
  }

  describe('guessing', () => {
    /** Wrong codes from fresh password steps, within the code step's limits: 10 per account per quarter hour, 5 per client. */
    let guesses = 0;
    async function wrongCodes(user: TestUser, n: number): Promise<void> {
      for (let i = 0; i < n; i++, guesses++) {
        if (guesses > 0 && guesses % 10 === 0) advance(15 * 60 + 30);
        const ip = `203.0.113.${(Math.floor(guesses / 5) % 250) + 1}`;
        const res = await sendCode(cookieHeaderOf(await signIn(user, ip)), '000000', ip);
        expect(res.status, `wrong code ${i + 1}: ${JSON.stringify(res.json)}`).toBe(401);
      }
    }
    beforeEach(() => {
      guesses = 0;
    });
    const alerts = async (user: TestUser) =>
      (await readOutbox(t.outbox)).filter((m) => m.addresses.to[0]?.address === user.email && m.subject === 'Ihr Passwort wurde mit falschen Codes verwendet');

    it('the 5th wrong code of a day emails the owner, once that day', async () => {
      const user = await createAdmin(t.db);
      await enrol(user);
      await wrongCodes(user, 4);
      await settled();
      expect(await alerts(user)).toHaveLength(0);
      await wrongCodes(user, 1);
      await settled();
      const [mail] = await alerts(user);
      expect(mail).toBeDefined();
      expect(mail!.text).toContain('kennt jemand anderes Ihr Passwort');
      expect(mail!.text).toContain('https://praxis.example/auth/forgot');
      await wrongCodes(user, 5);
      await settled();
      expect(await alerts(user)).toHaveLength(1);
      // Queued in the outbox with the count that decided it, as a staff message about no booking.
      const queued = await t.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'account-wrong-codes'));
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({ audience: 'staff', bookingId: null });
    });

    it('after 30 wrong codes in a day the code step is closed (423) until the password is reset by its link; a recovery code or a passkey still signs in', async () => {
      const user = await createAdmin(t.db);
      const { secret, recovery } = await enrol(user);
      const authenticator = new SoftAuthenticator(siteOrigin());
      const options = await as(user.cookie)(registerOptions, '/api/auth/passkey/register/options', { method: 'POST', body: { password: user.password, code: totpCodeAt(secret, now()) } });
      expect((await as(user.cookie)(registerVerify, '/api/auth/passkey/register/verify', { method: 'POST', body: { name: 'Laptop', response: authenticator.register(options.json) } })).status).toBe(200);
      advance(30);

      await wrongCodes(user, 29);
      advance(15 * 60 + 30);
      guesses = 0;
      const beforeClosing = cookieHeaderOf(await signIn(user));
      expect((await sendCode(beforeClosing, totpCodeAt(secret, now()))).status).toBe(200);
      advance(30);
      await wrongCodes(user, 1);
      const [row] = await t.db.select({ closedAt: users.codeStepClosedAt }).from(users).where(eq(users.id, user.id));
      expect(row!.closedAt).not.toBeNull();
      const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'code-step-close'), eq(auditLog.entityId, user.id)));
      expect(entry).toBeDefined();

      const pending = cookieHeaderOf(await signIn(user));
      const closed = await sendCode(pending, totpCodeAt(secret, now()));
      expect(closed.status).toBe(423);
      expect(closed.json.type).toBe('code-step-closed');
      expect(closed.json.detail).toContain('Passwort vergessen');
      // A recovery code still signs in, with the same pending sign-in.
      const byRecovery = await sendCode(pending, recovery[0]!);
      expect(byRecovery.status).toBe(200);
      const recoverySession = cookieHeaderOf(byRecovery);
      // So does a passkey.
      const o = await call(loginOptions, '/api/auth/passkey/login/options', { method: 'POST', ip: nextIp(), headers: { origin: siteOrigin() } });
      const byPasskey = await call(loginVerify, '/api/auth/passkey/login/verify', { method: 'POST', body: authenticator.authenticate(o.json), headers: { cookie: cookieHeaderOf(o), origin: siteOrigin() } });
      expect(byPasskey.status).toBe(200);

      // A new password by its link opens the code step again and ends every session.
      await resetByLink(user, 'ein-ganz-neues-passwort-2030');
      expect((await as(recoverySession)(sessionFn, '/api/auth/session')).status).toBe(401);
      expect((await as(cookieHeaderOf(byPasskey))(sessionFn, '/api/auth/session')).status).toBe(401);
      expect(await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))).toHaveLength(0);
      advance(30);
      expect((await sendCode(cookieHeaderOf(await signIn(user)), totpCodeAt(secret, now()))).status).toBe(200);
    });

    it('a password change under "Mein Konto" opens a closed code step too', async () => {
      const user = await createAdmin(t.db);
      const { secret, recovery } = await enrol(user);
      await t.db.update(users).set({ codeStepClosedAt: now() }).where(eq(users.id, user.id));
      const session = cookieHeaderOf(await sendCode(cookieHeaderOf(await signIn(user)), recovery[0]!));
      const change = await as(session)(passwordFn, '/api/auth/password', { method: 'POST', body: { currentPassword: user.password, newPassword: 'noch-ein-neues-passwort-31' } });
      expect(change.status).toBe(204);
      user.password = 'noch-ein-neues-passwort-31';
      expect((await sendCode(cookieHeaderOf(await signIn(user)), totpCodeAt(secret, now()))).status).toBe(200);
    });
  });
});
