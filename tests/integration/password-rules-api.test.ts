/**
 * New passwords (docs/decisions/018-password-rules.md): at least 12
 * characters and not on the common-password list, wherever a password is
 * set – first-admin setup, reset and invitation links, own change, a
 * colleague added with an initial password – 400 naming the field with a
 * German/English text; existing shorter passwords keep signing in.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordTokens, rateLimits, users } from '../../db/schema';
import adminUsers from '../../netlify/functions/admin-users';
import passwordFn from '../../netlify/functions/auth-password';
import login from '../../netlify/functions/auth-login';
import reset from '../../netlify/functions/auth-reset';
import setup from '../../netlify/functions/auth-setup';
import { dictionaries } from '../../src/i18n/i18n';
import { insertPasswordToken } from '../../src/server/auth/accounts.server';
import { isCommonPassword } from '../../src/server/auth/password-policy.server';
import { sha256Hex } from '../../src/server/auth/tokens.server';
import { labels } from '../../src/islands/admin/shared/labels';
import { asAdmin, errorsOf, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

/** On the list (lower-case there; checked whatever the case) and 12+ characters long. */
const COMMON = ['qwerty123456', 'QWERTY123456', '1qaz2wsx3edc', 'q1w2e3r4t5y6'];

describe('the common-password list', () => {
  it('comes from the package and is checked whatever the letter case', async () => {
    for (const p of COMMON) expect(await isCommonPassword(p), p).toBe(true);
    expect(await isCommonPassword('Kaffeetasse-im-Wartezimmer')).toBe(false);
  });

  it('its message has a German and an English text, and the back office shows it in German', () => {
    expect(dictionaries.de['errors.passwordCommon']).toMatch(/verbreitet/);
    expect(dictionaries.en['errors.passwordCommon']).toMatch(/common/);
    expect(dictionaries.en['errors.passwordTooShort']).toMatch(/12/);
    expect(labels.errors['errors.passwordCommon']).toBe(dictionaries.de['errors.passwordCommon']);
    expect(labels.errors['errors.passwordTooShort']).toBe(dictionaries.de['errors.passwordTooShort']);
  });
});

describe.each(databaseKinds)('new passwords on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'pw-rules-', env: { POSTMARK_SERVER_TOKEN: '' } } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const origin = () => ({ origin: siteOrigin() });
  const signIn = (email: string, password: string) => call(login, '/api/auth/login', { method: 'POST', body: { email, password }, ip: '192.0.2.200' });
  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(rateLimits);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
  });

  it('first-admin setup: 400 for 11 characters and for a common password, creating nothing; 12 good characters work', async () => {
    const body = (password: string) => ({ email: 'chefin@example.org', password, adminSecret: 'praxis-setup' });
    expect(errorsOf(await call(setup, '/api/auth/setup', { method: 'POST', body: body('elf-zeichen'), headers: origin() })).password).toEqual(['errors.passwordTooShort']);
    for (const common of COMMON) {
      expect(errorsOf(await call(setup, '/api/auth/setup', { method: 'POST', body: body(common), headers: origin() })).password).toEqual(['errors.passwordCommon']);
    }
    expect(await t.db.select().from(users)).toEqual([]);
    const created = await call(setup, '/api/auth/setup', { method: 'POST', body: body('zwoelf-zeich'), headers: origin() });
    expect(created.status).toBe(201);
    admin = await createAdmin(t.db);
  });

  it('a colleague added with an initial password: the same rules', async () => {
    for (const [password, key] of [['kurz-123', 'errors.passwordTooShort'], ['qwerty123456', 'errors.passwordCommon']] as const) {
      expect(errorsOf(await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'kollegin@example.org', password } })).password).toEqual([key]);
    }
    expect(await t.db.select().from(users).where(eq(users.email, 'kollegin@example.org'))).toEqual([]);
    expect((await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'kollegin@example.org', password: 'Startpasswort-2030' } })).status).toBe(201);
  });

  it('own change: the same rules, under newPassword; nothing changes', async () => {
    const me = await createAdmin(t.db, { password: 'altes-passwort-1' });
    const change = (newPassword: string) =>
      call(passwordFn, '/api/auth/password', { method: 'POST', body: { currentPassword: 'altes-passwort-1', newPassword }, headers: { cookie: me.cookie, ...origin() } });
    expect(errorsOf(await change('kurz')).newPassword).toEqual(['errors.passwordTooShort']);
    expect(errorsOf(await change('1qaz2wsx3edc')).newPassword).toEqual(['errors.passwordCommon']);
    expect((await signIn(me.email, 'altes-passwort-1')).status).toBe(200);
    expect((await change('ein-neues-passwort')).status).toBe(204);
  });

  it('reset and invitation links: the same rules; the refused link stays usable', async () => {
    const user = await createAdmin(t.db);
    for (const purpose of ['reset', 'invitation'] as const) {
      const token = await insertPasswordToken(t.db, user.id, purpose);
      const set = (password: string) => call(reset, '/api/auth/reset', { method: 'POST', body: { token, password }, headers: origin() });
      expect(errorsOf(await set('zu-kurz-1')).password).toEqual(['errors.passwordTooShort']);
      expect(errorsOf(await set('q1w2e3r4t5y6')).password).toEqual(['errors.passwordCommon']);
      const [row] = await t.db.select().from(passwordTokens).where(eq(passwordTokens.tokenHash, sha256Hex(token)));
      expect(row!.usedAt).toBeNull();
      expect((await set(`selbst-gewaehlt-${purpose}`)).status).toBe(204);
    }
  });

  it('existing passwords shorter than 12 characters, or on the list, keep signing in', async () => {
    const old = await createAdmin(t.db, { password: 'geheim1' });
    const common = await createAdmin(t.db, { password: 'password' });
    expect((await signIn(old.email, 'geheim1')).status).toBe(200);
    expect((await signIn(common.email, 'password')).status).toBe(200);
  });
});
