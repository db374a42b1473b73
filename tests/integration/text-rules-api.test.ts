/**
 * Text rules everywhere (docs/decisions/037-passkeys-sessions-guessing.md):
 * a NUL or any control, format, bidi or noncharacter code point in any
 * string of any JSON body is 400 naming the field, before anything reaches
 * the database (a NUL in the sign-in email used to be a 500); staff emails
 * follow the address rules of patients' emails.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointmentTypes, loginAttempts, users } from '../../db/schema';
import types from '../../netlify/functions/admin-appointment-types';
import adminUsers from '../../netlify/functions/admin-users';
import bookings from '../../netlify/functions/bookings';
import contact from '../../netlify/functions/contact';
import forgot from '../../netlify/functions/auth-forgot';
import login from '../../netlify/functions/auth-login';
import passwordFn from '../../netlify/functions/auth-password';
import setup from '../../netlify/functions/auth-setup';
import { asAdmin, errorsOf, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

let ip = 0;
const post = (handler: Parameters<typeof call>[0], path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(handler, path, { method: 'POST', body, ip: `198.18.0.${++ip}`, headers: { origin: siteOrigin(), ...headers } });

describe.each(databaseKinds)('text rules on every JSON body on %s', (kind) => {
  const t = useTestBed({ database: kind, dataDir: 'text-rules-', env: { POSTMARK_SERVER_TOKEN: '' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });
  beforeEach(async () => {
    await t.db.delete(loginAttempts);
  });

  it('answers a NUL in the sign-in email with 400 naming the field, not 500, and counts no attempt', async () => {
    const res = await post(login, '/api/auth/login', { email: 'a\u0000@b.de', password: 'irgendein-passwort' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors)).toEqual(['email']);
    expect(await t.db.select().from(loginAttempts)).toEqual([]);
    // In the password, which has no rule of its own, the floor names it.
    const password = await post(login, '/api/auth/login', { email: admin.email, password: 'richtig\u0000' });
    expect(password.status).toBe(400);
    expect(password.json.errors).toEqual({ password: ['errors.invalidCharacters'] });
  });

  it.each([
    ['NUL', '\u0000'],
    ['BEL', '\u0007'],
    ['ESC', '\u001b'],
    ['a C1 control', '\u009b'],
    ['RLO', '\u202e'],
    ['LRI', '\u2066'],
    ['a zero-width space', '\u200b'],
    ['a BOM', '\ufeff'],
    ['a noncharacter', '\ufdd0'],
    ['a tag character', '\u{e0041}'],
  ])('refuses %s wherever it stands: fields without a rule of their own, fields the action ignores, nested ones', async (_what, ch) => {
    const cases: Array<[Parameters<typeof call>[0], string, unknown, string]> = [
      [setup, '/api/auth/setup', { email: 'neu@praxis.example', password: 'ein-langes-passwort-1', adminSecret: `praxis${ch}setup` }, 'adminSecret'],
      [forgot, '/api/auth/forgot', { email: admin.email, extra: `x${ch}` }, 'extra'],
      [contact, '/api/contact', { name: 'Anna Muster', email: 'anna@example.org', message: 'Hallo', language: 'de', website: `${ch}` }, 'website'],
      [bookings, '/api/bookings', { appointment_type_id: '00000000-0000-4000-8000-000000000000', notes: { deep: [`a${ch}`] } }, 'notes.deep.0'],
    ];
    for (const [handler, path, body, field] of cases) {
      const res = await post(handler, path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json.errors[field], path).toEqual(['errors.invalidCharacters']);
    }
    const typeName = errorsOf(await api(types, '/api/admin/appointment-types', { method: 'POST', body: { name: 'Vorsorge', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1, color: `#fff${ch}` } }));
    expect(typeName.color).toBeDefined();
    const change = await api(passwordFn, '/api/auth/password', { method: 'POST', body: { currentPassword: `richtig${ch}`, newPassword: 'ein-neues-passwort-12' } });
    expect(errorsOf(change).currentPassword).toEqual(['errors.invalidCharacters']);
    expect(await t.db.select().from(appointmentTypes)).toEqual([]);
  });

  it('keeps the field’s own rule and message where it has one', async () => {
    const res = await post(contact, '/api/contact', { name: 'Anna\u202e Muster', email: 'anna@example.org', message: 'Hallo', language: 'de' });
    expect(res.json.errors).toEqual({ name: ['contact.errors.invalidCharacters'] });
  });

  describe('staff emails follow the address rules of patients’ emails', () => {
    it.each(['a,b@praxis.example', 'Anna <anna@praxis.example>', '"anna muster"@praxis.example', 'anna@praxis.example\u2028bcc@evil.example', 'anna@@praxis.example', 'anna@praxis..example', 'anna=?utf-8?q?x?=@praxis.example'])(
      'refuses %j as a colleague’s email, a sign-in email, a setup email and a forgotten-password email',
      async (email) => {
        const created = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email, invite: true } });
        expect(errorsOf(created).email, email).toBeDefined();
        expect(errorsOf(await post(login, '/api/auth/login', { email, password: 'x' })).email).toBeDefined();
        expect(errorsOf(await post(setup, '/api/auth/setup', { email, password: 'ein-langes-passwort-1', adminSecret: 'x' })).email).toBeDefined();
        expect(errorsOf(await post(forgot, '/api/auth/forgot', { email })).email).toBeDefined();
      },
    );

    it('keeps an internationalised domain as punycode, lower case, and signs in with it as typed', async () => {
      const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: ' Team@Bücher.example ', password: 'ein-langes-passwort-1' } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.email).toBe('team@xn--bcher-kva.example');
      const [row] = await t.db.select().from(users).where(eq(users.id, res.json.id));
      expect(row!.email).toBe('team@xn--bcher-kva.example');
      const signedIn = await post(login, '/api/auth/login', { email: 'TEAM@bücher.example', password: 'ein-langes-passwort-1' });
      expect(signedIn.status).toBe(200);
    });
  });
});
