import { afterAll, beforeAll, expect, it } from 'vitest';
import { userRoles, users } from '../../db/schema';
import setup from '../../netlify/functions/auth-setup';
import { call } from '../helpers/http';
import { useTestDatabase, type TestDatabase } from '../helpers/test-database';

let t: TestDatabase;
beforeAll(async () => {
  process.env.DATABASE_POOL_SIZE = '20';
  t = await useTestDatabase('postgres');
});
afterAll(async () => {
  delete process.env.DATABASE_POOL_SIZE;
  await t.dispose();
});

it('20 concurrent setups against a real Postgres create exactly one admin; the others get 409', async () => {
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      call(setup, '/api/auth/setup', {
        method: 'POST',
        body: { email: `admin${i}@example.org`, password: 'geheim1', adminSecret: 'praxis-setup' },
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
