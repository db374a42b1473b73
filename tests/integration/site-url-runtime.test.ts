/**
 * Functions take Netlify's own address at run time when SITE_URL is unset,
 * as the build does
 * (docs/decisions/028-hidden-characters-addresses-invitations-origin.md): a
 * production deploy without SITE_URL used to build and then answer every
 * request 503 naming SITE_URL. Production only: the embedded database is
 * refused there, so this runs on the real Postgres.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import appointmentTypes from '../../netlify/functions/appointment-types';
import bookings from '../../netlify/functions/bookings';
import { readEnv } from '../../src/server/env.server';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

function production(url: string): Record<string, string | undefined> {
  return {
    APP_ENV: '',
    DATABASE_URL: url,
    JWT_SECRET: 'j'.repeat(48),
    POSTMARK_SERVER_TOKEN: 'postmark-token-0f1e2d3c',
    MAIL_FROM: 'Praxis <praxis@example.org>',
    PRACTICE_EMAIL: 'team@example.org',
    SITE_URL: undefined,
    URL: undefined,
    DEPLOY_PRIME_URL: undefined,
    CONTEXT: undefined,
  };
}

function stubAll(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
}

describe('SITE_URL at run time on Netlify', () => {
  const t = useTestBed({ database: 'postgres' });
  afterEach(() => vi.unstubAllEnvs());

  const postBooking = (origin: string) => call(bookings, '/api/bookings', { method: 'POST', body: {}, headers: { origin } });

  it('without SITE_URL a production function takes Netlify URL: it serves, and accepts POSTs from that origin only', async () => {
    stubAll({ ...production(t.url), URL: 'https://praxis-duesseldorf.netlify.app', CONTEXT: 'production' });
    expect(readEnv().SITE_URL).toBe('https://praxis-duesseldorf.netlify.app');
    expect((await call(appointmentTypes, '/api/appointment-types')).status).toBe(200);
    // Past the origin check, the body check answers.
    expect((await postBooking('https://praxis-duesseldorf.netlify.app')).status).toBe(400);
    expect((await postBooking('https://evil.example')).status).toBe(403);
  });

  it('a deploy preview or branch deploy takes its own address (DEPLOY_PRIME_URL), as the build does', async () => {
    for (const context of ['deploy-preview', 'branch-deploy']) {
      const own = context === 'deploy-preview' ? 'https://deploy-preview-7--praxis-duesseldorf.netlify.app' : 'https://staging--praxis-duesseldorf.netlify.app';
      stubAll({ ...production(t.url), URL: 'https://praxis-duesseldorf.netlify.app', DEPLOY_PRIME_URL: own, CONTEXT: context });
      expect(readEnv().SITE_URL).toBe(own);
      expect((await postBooking(own)).status).toBe(400);
      expect((await postBooking('https://evil.example')).status).toBe(403);
    }
  });

  it('SITE_URL, when set, wins; the production context ignores DEPLOY_PRIME_URL', async () => {
    stubAll({ ...production(t.url), SITE_URL: 'https://www.praxis.example', URL: 'https://praxis-duesseldorf.netlify.app' });
    expect(readEnv().SITE_URL).toBe('https://www.praxis.example');
    expect((await postBooking('https://praxis-duesseldorf.netlify.app')).status).toBe(403);
    stubAll({ ...production(t.url), URL: 'https://praxis-duesseldorf.netlify.app', DEPLOY_PRIME_URL: 'https://abc--praxis-duesseldorf.netlify.app', CONTEXT: 'production' });
    expect(readEnv().SITE_URL).toBe('https://praxis-duesseldorf.netlify.app');
  });

  it('an address that is no public https origin does not stand in: 503 not-configured naming SITE_URL in the log', async () => {
    for (const value of ['http://praxis.example', 'https://localhost:8888', 'https://praxis.example/pfad', 'not a url']) {
      stubAll({ ...production(t.url), URL: value });
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await call(appointmentTypes, '/api/appointment-types');
      expect(res.status, value).toBe(503);
      expect(res.json.type).toBe('not-configured');
      expect(error.mock.calls.map((c) => c.join(' ')).join('\n')).toContain('SITE_URL');
      error.mockRestore();
    }
  });

  it('outside production Netlify variables are not used (the local default stays)', () => {
    stubAll({ APP_ENV: 'development', SITE_URL: undefined, URL: 'https://praxis-duesseldorf.netlify.app' });
    expect(readEnv().SITE_URL).toBe('http://localhost:4321');
  });
});
