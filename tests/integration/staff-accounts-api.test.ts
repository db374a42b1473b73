/**
 * Staff accounts (docs/decisions/010-staff-accounts-audit-day-list.md): admins list,
 * add and remove colleagues (never the last admin), own password change
 * ends the other sessions; invitations are valid 48 hours. Tokens are
 * stored as SHA-256 only. "Passwort vergessen" and the links:
 * password-links-api.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordTokens, rateLimits, sessions, userRoles, users } from '../../db/schema';
import adminUsers, { config as usersConfig } from '../../netlify/functions/admin-users';
import adminUser, { config as userConfig } from '../../netlify/functions/admin-user';
import passwordFn, { config as passwordConfig } from '../../netlify/functions/auth-password';
import { config as forgotConfig } from '../../netlify/functions/auth-forgot';
import reset, { config as resetConfig } from '../../netlify/functions/auth-reset';
import login from '../../netlify/functions/auth-login';
import sessionFn from '../../netlify/functions/auth-session';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { sha256Hex } from '../../src/server/auth/tokens.server';
import { asAdmin, errorsOf, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { countRoundTrips } from '../helpers/round-trips';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;

/** The token of the last link in an email's text. */
function tokenFrom(text: string): string {
  const match = /\/auth\/reset\?token=([A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[1]!;
}

describe.each(databaseKinds)('staff accounts on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'accounts-', env: { POSTMARK_SERVER_TOKEN: '', SITE_URL: 'https://praxis.example' } } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const outbox = () => readOutbox(t.outbox);
  const signIn = (email: string, password: string) =>
    call(login, '/api/auth/login', { method: 'POST', body: { email, password }, ip: nextIp() });
  const setPassword = (token: string, password: string) => call(reset, '/api/auth/reset', { method: 'POST', body: { token, password }, headers: { origin: siteOrigin() } });

  beforeAll(async () => {
    admin = await createAdmin(t.db, { email: 'chefin@example.org' });
  });
  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(rateLimits);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(usersConfig.path).toBe('/api/admin/users');
    expect(userConfig.path).toBe('/api/admin/users/:id');
    expect(passwordConfig.path).toBe('/api/auth/password');
    expect(forgotConfig.path).toBe('/api/auth/forgot');
    expect(resetConfig.path).toBe('/api/auth/reset');
  });

  describe('admin users', () => {
    it('adds a colleague with an initial password (201 { id, email }); they sign in as admin and are listed by email', async () => {
      const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: ' Kollege@Example.org ', password: 'anfang-passwort-123' } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ id: expect.any(String), email: 'kollege@example.org' });
      const signedIn = await signIn('kollege@example.org', 'anfang-passwort-123');
      expect(signedIn.status).toBe(200);
      expect(signedIn.json.isAdmin).toBe(true);
      const list = await api(adminUsers, '/api/admin/users');
      expect(list.status).toBe(200);
      expect(list.json).toEqual([
        { id: admin.id, email: 'chefin@example.org', created_at: expect.any(String), status: 'active', invited_until: null, second_factor: false },
        { id: res.json.id, email: 'kollege@example.org', created_at: expect.any(String), status: 'active', invited_until: null, second_factor: false },
      ]);
      expect(list.json[0]).not.toHaveProperty('password_hash');
      expect(list.json[0]).not.toHaveProperty('passwordHash');
    });

    it('answers 409 for an email that exists, adding nothing', async () => {
      const before = await t.db.select().from(users);
      const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'CHEFIN@example.org', password: 'anderes-passwort-1' } });
      expect(res.status).toBe(409);
      expect(res.json.type).toBe('conflict');
      expect(await t.db.select().from(users)).toHaveLength(before.length);
    });

    it.each([
      ['a short password', { email: 'a@example.org', password: '123' }, 'password', 'errors.passwordTooShort'],
      ['no password and no invitation', { email: 'a@example.org' }, 'password', 'errors.passwordRequired'],
      ['a password and an invitation', { email: 'a@example.org', password: 'langes-passwort', invite: true }, 'password', 'admin.errors.passwordOrInvite'],
      ['a bad email', { email: 'kein-at', password: 'langes-passwort' }, 'email', 'errors.emailInvalid'],
      ['invite as text', { email: 'a@example.org', invite: 'yes' }, 'invite', 'admin.errors.invalid'],
    ])('answers 400 for %s, naming the field, adding nothing', async (_, body, field, key) => {
      const before = (await t.db.select().from(users)).length;
      expect(errorsOf(await api(adminUsers, '/api/admin/users', { method: 'POST', body }))[field]).toContain(key);
      expect(await t.db.select().from(users)).toHaveLength(before);
    });

    it('invites by email: the link (valid 48 h, stored as SHA-256 only) lets the colleague set a password and sign in; used twice is 404', async () => {
      const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'neu@example.org', invite: true } });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ id: expect.any(String), email: 'neu@example.org', invitationSent: true });
      const [mail] = await outbox();
      expect(mail!.headers.to).toContain('neu@example.org');
      expect(mail!.subject).toBe('Einladung zur Praxis-Verwaltung');
      // Greets the colleague, names the practice and who invited them.
      expect(mail!.text).toMatch(/^Guten Tag,\n\nchefin@example\.org hat Sie zur Praxis-Verwaltung der Website „Hausarztpraxis Düsseldorf“ eingeladen/);
      expect(mail!.text).toContain('Ihr Benutzername ist neu@example.org.');
      expect(mail!.html).toContain('<p>Guten Tag,</p>');
      expect(mail!.text).toContain('48 Stunden');
      expect(mail!.text).toContain('https://praxis.example/auth/reset?token=');
      const token = tokenFrom(mail!.text);
      const [row] = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, res.json.id));
      expect(row!.purpose).toBe('invitation');
      expect(row!.tokenHash).toBe(sha256Hex(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(48 * 3600_000);
      // Before accepting, no password the colleague could know works.
      expect((await signIn('neu@example.org', '')).status).toBe(400);

      expect((await setPassword(token, 'mein-neues-passwort')).status).toBe(204);
      expect((await signIn('neu@example.org', 'mein-neues-passwort')).status).toBe(200);
      const again = await setPassword(token, 'noch-ein-passwort');
      expect(again.status).toBe(404);
      expect((await signIn('neu@example.org', 'noch-ein-passwort')).status).toBe(401);
    });

    it('an invitation link older than 48 hours is refused with 404', async () => {
      const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'spaet@example.org', invite: true } });
      const token = tokenFrom((await outbox())[0]!.text);
      vi.useFakeTimers({ now: Date.now() + 48 * 3600_000 + 1000, toFake: ['Date'] });
      expect((await setPassword(token, 'zu-spaet-passwort-1')).status).toBe(404);
      vi.useRealTimers();
      const [row] = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, res.json.id));
      expect(row!.usedAt).toBeNull();
    });

    it('removes a colleague (204): their session ends at once; unknown id 404', async () => {
      const colleague = await createAdmin(t.db);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: colleague.cookie } })).status).toBe(200);
      const res = await api(adminUser, `/api/admin/users/${colleague.id}`, { method: 'DELETE', params: { id: colleague.id } });
      expect(res.status).toBe(204);
      expect(await t.db.select().from(users).where(eq(users.id, colleague.id))).toEqual([]);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: colleague.cookie } })).status).toBe(401);
      const again = await api(adminUser, `/api/admin/users/${colleague.id}`, { method: 'DELETE', params: { id: colleague.id } });
      expect(again.status).toBe(404);
    });

    it('never removes the last admin: 409 last-admin, the admin stays', async () => {
      // Leave exactly one admin: the signed-in one.
      const others = (await t.db.select({ id: users.id }).from(users)).filter((u) => u.id !== admin.id);
      for (const u of others) await t.db.delete(users).where(eq(users.id, u.id));
      const res = await api(adminUser, `/api/admin/users/${admin.id}`, { method: 'DELETE', params: { id: admin.id } });
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ type: 'last-admin', detail: 'Der letzte Admin-Benutzer kann nicht entfernt werden.' });
      expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, admin.id))).toHaveLength(1);
    });

    it('two admins removing each other at the same moment: exactly one succeeds, one admin remains', async () => {
      const others = (await t.db.select({ id: users.id }).from(users)).filter((u) => u.id !== admin.id);
      for (const u of others) await t.db.delete(users).where(eq(users.id, u.id));
      const second = await createAdmin(t.db);
      const [a, b] = await Promise.all([
        asAdmin(() => admin)(adminUser, `/api/admin/users/${second.id}`, { method: 'DELETE', params: { id: second.id } }),
        asAdmin(() => second)(adminUser, `/api/admin/users/${admin.id}`, { method: 'DELETE', params: { id: admin.id } }),
      ]);
      const statuses = [a.status, b.status].sort();
      // Whoever goes second is either the last admin (409) or already removed and so signed out (401).
      expect(statuses[0]).toBe(204);
      expect([401, 409]).toContain(statuses[1]);
      expect(await t.db.select().from(userRoles).where(eq(userRoles.role, 'admin'))).toHaveLength(1);
      // Restore the signed-in admin for later tests.
      if (a.status !== 204) admin = await createAdmin(t.db, { email: `chefin-${Date.now()}@example.org` });
    });
  });

  describe('own password change', () => {
    it('needs the current password (401, nothing changed) and ends every other session of the user, not this one', async () => {
      const me = await createAdmin(t.db, { password: 'altes-pw-1' });
      const otherDevice = await signIn(me.email, 'altes-pw-1');
      expect(otherDevice.status).toBe(200);
      const otherCookie = otherDevice.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const someoneElse = await createAdmin(t.db);
      const change = (body: unknown) => call(passwordFn, '/api/auth/password', { method: 'POST', body, headers: { cookie: me.cookie, origin: siteOrigin() } });

      const wrong = await change({ currentPassword: 'falsch', newPassword: 'neues-passwort-1' });
      expect(wrong.status).toBe(401);
      expect(wrong.json.detail).toBe('Das aktuelle Passwort ist falsch.');
      expect((await signIn(me.email, 'altes-pw-1')).status).toBe(200);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: otherCookie } })).status).toBe(200);

      expect(errorsOf(await change({ currentPassword: 'altes-pw-1', newPassword: 'kurz' })).newPassword).toEqual(['errors.passwordTooShort']);

      const ok = await change({ currentPassword: 'altes-pw-1', newPassword: 'neues-passwort-1' });
      expect(ok.status).toBe(204);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: me.cookie } })).status).toBe(200);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: otherCookie } })).status).toBe(401);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: someoneElse.cookie } })).status).toBe(200);
      expect((await signIn(me.email, 'altes-pw-1')).status).toBe(401);
      expect((await signIn(me.email, 'neues-passwort-1')).status).toBe(200);
    });

    it('answers 401 without a session and 403 from another site', async () => {
      const body = { currentPassword: 'a', newPassword: 'bbbbbbbb' };
      expect((await call(passwordFn, '/api/auth/password', { method: 'POST', body })).status).toBe(401);
      const cross = await call(passwordFn, '/api/auth/password', { method: 'POST', body, headers: { cookie: admin.cookie, origin: 'https://evil.example' } });
      expect(cross.status).toBe(403);
    });
  });

  it('sessions of removed users are gone with them (cascade), so nothing lingers', async () => {
    const gone = await createAdmin(t.db);
    await api(adminUser, `/api/admin/users/${gone.id}`, { method: 'DELETE', params: { id: gone.id } });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, gone.id))).toEqual([]);
    expect(await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, gone.id))).toEqual([]);
  });
});

describe('the admin guard on a real Postgres', () => {
  const t = useTestBed({ database: 'postgres' });
  let trips: ReturnType<typeof countRoundTrips>;
  beforeEach(() => {
    trips = countRoundTrips();
  });
  afterEach(() => vi.restoreAllMocks());

  // Session, user and role read in one statement see one snapshot: an admin a colleague
  // removes at that very moment is signed out (401); two statements could see the user
  // and then no role (403 "Admin-Rechte", once seen in CI).
  it('reads session, user and role in one round trip; a removed admin is 401, a demoted one 403', async () => {
    const admin = await createAdmin(t.db);
    const request = (cookie: string) => new Request('http://localhost:4321/api/admin/users', { headers: { cookie } });
    await requireAdmin(request(admin.cookie), t.db); // warm the pool: connecting is not counted
    trips.reset();
    const session = await requireAdmin(request(admin.cookie), t.db);
    expect(trips.count).toBe(1);
    expect(session).toMatchObject({ user: { id: admin.id, email: admin.email }, isAdmin: true });

    const demoted = await createAdmin(t.db);
    await t.db.delete(userRoles).where(eq(userRoles.userId, demoted.id));
    await expect(requireAdmin(request(demoted.cookie), t.db)).rejects.toMatchObject({ status: 403 });
    await t.db.delete(users).where(eq(users.id, admin.id));
    await expect(requireAdmin(request(admin.cookie), t.db)).rejects.toMatchObject({ status: 401 });
  });
});
