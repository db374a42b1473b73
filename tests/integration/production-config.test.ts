/**
 * Functions fail closed (docs/decisions/008-production-fail-closed.md).
 * Without APP_ENV=development they run as production; a missing or invalid
 * required variable answers 503 not-configured (naming nothing secret) with
 * one log line naming the variable; setup needs ADMIN_SETUP_SECRET and no
 * response reveals a setup word.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema';
import status from '../../netlify/functions/auth-status';
import setup from '../../netlify/functions/auth-setup';
import adminTypes from '../../netlify/functions/admin-appointment-types';
import appointmentTypes from '../../netlify/functions/appointment-types';
import { DEFAULT_SETUP_SECRET } from '../../src/server/auth/auth.server';
import type { Handler } from '../../src/server/http.server';
import { createAdmin } from '../helpers/auth';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

const SECRETS = {
  JWT_SECRET: 'j'.repeat(48),
  POSTMARK_SERVER_TOKEN: 'postmark-token-0f1e2d3c',
  ADMIN_SETUP_SECRET: 'sehr-geheimes-wort',
};

function production(url: string): Record<string, string> {
  return {
    APP_ENV: '',
    DATABASE_URL: url,
    ...SECRETS,
    MAIL_FROM: 'Praxis <praxis@example.org>',
    PRACTICE_EMAIL: 'team@example.org',
    SITE_URL: 'https://www.praxis.example',
  };
}

function stubAll(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
}

function expectNothingSecret(text: string, url: string) {
  for (const value of [...Object.values(SECRETS), url, DEFAULT_SETUP_SECRET]) expect(text).not.toContain(value);
}

describe('functions in production (no APP_ENV)', () => {
  const t = useTestBed({ database: 'postgres' });
  let functions: Array<{ name: string; handler: Handler; path: string }>;

  beforeAll(async () => {
    const dir = path.resolve('netlify/functions');
    functions = [];
    // The /api/* catch-all answers 404 without touching configuration; /api/health reports a missing
    // variable as its failing check to the uptime monitor (tests/integration/health-api.test.ts).
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts') && f !== 'api-not-found.ts' && f !== 'health.ts').sort()) {
      const mod = (await import(/* @vite-ignore */ path.join(dir, file))) as { default: Handler; config: { path?: string | string[] } };
      // A scheduled function (send-reminders) has no path; it is not an HTTP endpoint.
      if (!mod.config.path) continue;
      functions.push({ name: file, handler: mod.default, path: [mod.config.path].flat()[0]!.replace(/:[a-z]+/gi, 'x').replace('*', 'x') });
    }
    expect(functions.length).toBeGreaterThan(20);
  });
  afterEach(() => vi.unstubAllEnvs());

  it('serve requests when everything is configured', async () => {
    stubAll(production(t.url));
    expect((await call(appointmentTypes, '/api/appointment-types')).status).toBe(200);
  });

  it.each([
    ['DATABASE_URL', { DATABASE_URL: undefined }],
    // Pasted with its quotes, or with another scheme: not-configured, never a 500 from the driver.
    ['DATABASE_URL', { DATABASE_URL: '"postgres://praxis:pw@db.example:5432/praxis"' }],
    ['DATABASE_URL', { DATABASE_URL: 'https://db.example/praxis' }],
    ['NETLIFY_DATABASE_URL', { DATABASE_URL: undefined, NETLIFY_DATABASE_URL: "'postgres://praxis:pw@db.example/praxis'" }],
    ['JWT_SECRET', { JWT_SECRET: undefined }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short-secret' }],
    ['POSTMARK_SERVER_TOKEN', { POSTMARK_SERVER_TOKEN: undefined }],
    ['MAIL_FROM', { MAIL_FROM: undefined }],
    ['MAIL_FROM', { MAIL_FROM: 'a@example.org, b@example.org' }],
    ['MAIL_FROM', { MAIL_FROM: 'Praxis <a@example.org>, Team <b@example.org>' }],
    ['MAIL_FROM', { MAIL_FROM: 'Praxis: a@example.org, b@example.org;' }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: undefined }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: 'a@example.org, b@example.org' }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: 'team@example.org;chef@example.org' }],
    ['SITE_URL', { SITE_URL: undefined, URL: undefined }],
    // Netlify's own URL stands in only when it is a public https origin (docs/decisions/028-hidden-characters-addresses-invitations-origin.md).
    ['SITE_URL', { SITE_URL: undefined, URL: 'http://localhost:8888' }],
  ])('every function answers 503 not-configured without %s (%o), logging the name once per request', async (name, change) => {
    stubAll({ ...production(t.url), ...change });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const fn of functions) {
      error.mockClear();
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await call(fn.handler, fn.path, { method, params: { id: 'x', token: 'x' }, body: ['GET', 'DELETE'].includes(method) ? undefined : {} });
        if (res.status === 405) continue;
        expect(res.status, `${fn.name} ${method}`).toBe(503);
        expect(res.json, fn.name).toMatchObject({ type: 'not-configured', status: 503 });
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expectNothingSecret(res.text, t.url);
        expect(res.text).not.toContain(name);
      }
      const lines = error.mock.calls.map((c) => c.join(' '));
      expect(lines.length, fn.name).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toContain(name);
        expectNothingSecret(line, t.url);
        // An invalid value is never echoed: a database URL carries its password.
        for (const value of Object.values(change)) if (value) expect(line).not.toContain(value);
      }
    }
    error.mockRestore();
  });

  it('a missing JWT_SECRET gives admin calls 503, not 401', async () => {
    stubAll(production(t.url));
    const admin = await createAdmin(t.db);
    stubAll({ JWT_SECRET: undefined });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await call(adminTypes, '/api/admin/appointment-types', { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(503);
    expect(res.json.type).toBe('not-configured');
    error.mockRestore();
  });

  it('uses NETLIFY_DATABASE_URL when DATABASE_URL is unset', async () => {
    stubAll({ ...production(t.url), DATABASE_URL: undefined, NETLIFY_DATABASE_URL: t.url });
    expect((await call(appointmentTypes, '/api/appointment-types')).status).toBe(200);
  });

  it('refuses setup without ADMIN_SETUP_SECRET (503 not-configured, nothing created) and never shows a setup word', async () => {
    stubAll({ ...production(t.url), ADMIN_SETUP_SECRET: undefined });
    const before = await t.db.select().from(users);
    const st = await call(status, 'https://www.praxis.example/api/auth/status');
    expect(st.status).toBe(200);
    expect(st.json.setupHint).toBeNull();
    expectNothingSecret(st.text, t.url);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await call(setup, 'https://www.praxis.example/api/auth/setup', {
      method: 'POST',
      headers: { origin: 'https://www.praxis.example' },
      body: { email: 'chef@example.org', password: 'praxis-geheim-lang', adminSecret: DEFAULT_SETUP_SECRET },
    });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ type: 'not-configured' });
    expectNothingSecret(res.text, t.url);
    expect(error.mock.calls.map((c) => c.join(' '))).toEqual([expect.stringContaining('ADMIN_SETUP_SECRET')]);
    expect(await t.db.select().from(users)).toEqual(before);
    error.mockRestore();
  });

  it('with ADMIN_SETUP_SECRET, setup takes that word and never the default', async () => {
    await t.db.execute(sql`truncate users cascade`);
    stubAll(production(t.url));
    const st = await call(status, 'https://www.praxis.example/api/auth/status');
    expect(st.json.setupHint).toBeNull();
    expectNothingSecret(st.text, t.url);
    const body = { email: 'chef@example.org', password: 'praxis-geheim-lang' };
    const options = { method: 'POST', headers: { origin: 'https://www.praxis.example' } };
    const wrong = await call(setup, 'https://www.praxis.example/api/auth/setup', { ...options, body: { ...body, adminSecret: DEFAULT_SETUP_SECRET } });
    expect(wrong.status).toBe(403);
    expectNothingSecret(wrong.text, t.url);
    const right = await call(setup, 'https://www.praxis.example/api/auth/setup', { ...options, body: { ...body, adminSecret: SECRETS.ADMIN_SETUP_SECRET } });
    expect(right.status).toBe(201);
    expectNothingSecret(right.text, t.url);
  });
});
