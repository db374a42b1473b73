import { expect, it } from 'vitest';
import { loginAttempts, userRoles, users } from '../../db/schema';
import setup from '../../netlify/functions/auth-setup';
import { LOGIN_LIMITS } from '../../src/server/auth/auth.server';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

const t = useTestBed({ database: 'postgres', env: { DATABASE_POOL_SIZE: '20' } });

it('20 concurrent setups against a real Postgres create exactly one admin; the others get 409', async () => {
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      call(setup, '/api/auth/setup', {
        method: 'POST',
        body: { email: `admin${i}@example.org`, password: 'praxis-geheim-lang', adminSecret: 'praxis-setup' },
      }),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([201, ...Array(19).fill(409)]);
  const admins = await t.db.select().from(userRoles);
  expect(admins).toHaveLength(1);
  expect(await t.db.select().from(users)).toHaveLength(1);
  const winner = results.find((r) => r.status === 201)!;
  expect(admins[0]!.userId).toBe(winner.json.user.id);
});

it('12 concurrent wrong logins for one account from one client against a real Postgres: at most 5 reach the password check, the rest get 429', async () => {
  const { default: login } = await import('../../netlify/functions/auth-login');
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      call(login, '/api/auth/login', { method: 'POST', body: { email: 'ziel@example.org', password: `rate${i}` }, ip: '10.9.0.1' }),
    ),
  );
  const checked = results.filter((r) => r.status === 401).length;
  expect(results.filter((r) => r.status === 429)).toHaveLength(12 - checked);
  // A burst may be refused more strictly than one by one, never more leniently.
  expect(checked).toBeLessThanOrEqual(5);
  // Only the checked attempts stay recorded as failures.
  expect(await t.db.select().from(loginAttempts)).toHaveLength(checked);
});

it(`40 concurrent wrong logins for different accounts from one client: at most ${LOGIN_LIMITS.perClient} reach the password check`, async () => {
  await t.db.delete(loginAttempts);
  const { default: login } = await import('../../netlify/functions/auth-login');
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      call(login, '/api/auth/login', { method: 'POST', body: { email: `ziel${i}@example.org`, password: 'falsch' }, ip: '10.9.0.2' }),
    ),
  );
  const checked = results.filter((r) => r.status === 401).length;
  expect(results.filter((r) => r.status === 429)).toHaveLength(40 - checked);
  expect(checked).toBeLessThanOrEqual(LOGIN_LIMITS.perClient);
});

it('two refreshes with the same current token at the same moment, 10 times over: every one answers 200 with the same token and the session lives', async () => {
  const { default: login } = await import('../../netlify/functions/auth-login');
  const { default: refresh } = await import('../../netlify/functions/auth-refresh');
  const { default: sessionFn } = await import('../../netlify/functions/auth-session');
  await t.db.delete(loginAttempts);
  const signedIn = await call(login, '/api/auth/login', { method: 'POST', body: { email: 'admin0@example.org', password: 'praxis-geheim-lang' }, ip: '10.9.1.1' });
  const admin = (await t.db.select({ email: users.email }).from(users))[0]!.email;
  const res = signedIn.status === 200 ? signedIn : await call(login, '/api/auth/login', { method: 'POST', body: { email: admin, password: 'praxis-geheim-lang' }, ip: '10.9.1.1' });
  expect(res.status).toBe(200);
  let cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  for (let run = 0; run < 10; run++) {
    const pair = await Promise.all([0, 1].map(() => call(refresh, '/api/auth/refresh', { method: 'POST', headers: { cookie } })));
    expect(pair.map((r) => r.status)).toEqual([200, 200]);
    const cookies = pair.map((r) => r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '));
    expect(cookies[0]).toBe(cookies[1]);
    cookie = cookies[0]!;
    expect((await call(sessionFn, '/api/auth/session', { headers: { cookie } })).status).toBe(200);
  }
});
