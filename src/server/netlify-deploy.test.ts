/**
 * A deploy preview or branch deploy accepts browser
 * requests from its own origin (Netlify's runtime context for the deploy),
 * never from another site's or another deploy's; production keeps SITE_URL.
 * tests/deploy runs the same through Netlify's own function bootstrap.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertSameOrigin } from './auth/origin.server';
import { readEnv } from './env.server';
import { previewDeployOrigin } from './netlify-deploy.server';

const PRODUCTION_ENV = {
  APP_ENV: '',
  DATABASE_URL: 'postgres://praxis:pw@db.example/praxis',
  JWT_SECRET: 'j'.repeat(48),
  POSTMARK_SERVER_TOKEN: 'token',
  MAIL_FROM: 'Praxis <praxis@example.org>',
  PRACTICE_EMAIL: 'team@example.org',
  SITE_URL: 'https://www.praxis.example',
};

/** What Netlify's bootstrap puts on globalThis.Netlify for one request. */
function onNetlify(deployContext: string, requestUrl: string, siteName = 'praxis-duesseldorf') {
  vi.stubGlobal('Netlify', { context: { deploy: { context: deployContext }, site: { name: siteName }, url: new URL(requestUrl) } });
}

function post(url: string, origin: string) {
  return new Request(url, { method: 'POST', headers: { origin } });
}

describe('deploy preview origin', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it('is the preview or branch deploy address of this site only', () => {
    onNetlify('deploy-preview', 'https://deploy-preview-7--praxis-duesseldorf.netlify.app/api/contact');
    expect(previewDeployOrigin()).toBe('https://deploy-preview-7--praxis-duesseldorf.netlify.app');
    onNetlify('branch-deploy', 'https://staging--praxis-duesseldorf.netlify.app/api/contact');
    expect(previewDeployOrigin()).toBe('https://staging--praxis-duesseldorf.netlify.app');
    for (const [context, url] of [
      ['production', 'https://deploy-preview-7--praxis-duesseldorf.netlify.app/api/contact'],
      ['deploy-preview', 'https://deploy-preview-7--other-site.netlify.app/api/contact'],
      ['deploy-preview', 'https://deploy-preview-7--praxis-duesseldorf.netlify.app.evil.example/api/contact'],
      ['deploy-preview', 'https://x.y--praxis-duesseldorf.netlify.app/api/contact'],
      ['deploy-preview', 'http://deploy-preview-7--praxis-duesseldorf.netlify.app/api/contact'],
      ['deploy-preview', 'https://www.praxis.example/api/contact'],
    ]) {
      onNetlify(context!, url!);
      expect(previewDeployOrigin(), `${context} ${url}`).toBeNull();
    }
    vi.unstubAllGlobals();
    expect(previewDeployOrigin()).toBeNull();
  });

  it('a preview accepts its own origin and SITE_URL, never another deploy or site', () => {
    for (const [k, v] of Object.entries(PRODUCTION_ENV)) vi.stubEnv(k, v);
    const own = 'https://deploy-preview-7--praxis-duesseldorf.netlify.app';
    onNetlify('deploy-preview', `${own}/api/auth/login`);
    expect(() => assertSameOrigin(post(`${own}/api/auth/login`, own))).not.toThrow();
    expect(() => assertSameOrigin(post(`${own}/api/auth/login`, 'https://www.praxis.example'))).not.toThrow();
    for (const foreign of ['https://deploy-preview-8--praxis-duesseldorf.netlify.app', 'https://deploy-preview-7--other-site.netlify.app', 'https://evil.example']) {
      expect(() => assertSameOrigin(post(`${own}/api/auth/login`, foreign)), foreign).toThrow(expect.objectContaining({ status: 403 }));
    }
  });

  it('production accepts SITE_URL only, even from its own netlify.app address', () => {
    for (const [k, v] of Object.entries(PRODUCTION_ENV)) vi.stubEnv(k, v);
    onNetlify('production', 'https://praxis-duesseldorf.netlify.app/api/auth/login');
    expect(() => assertSameOrigin(post('https://praxis-duesseldorf.netlify.app/api/auth/login', 'https://www.praxis.example'))).not.toThrow();
    expect(() => assertSameOrigin(post('https://praxis-duesseldorf.netlify.app/api/auth/login', 'https://praxis-duesseldorf.netlify.app'))).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });

  it('a preview without SITE_URL links to itself instead of failing closed', () => {
    for (const [k, v] of Object.entries({ ...PRODUCTION_ENV, SITE_URL: undefined })) vi.stubEnv(k, v);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => readEnv()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    onNetlify('deploy-preview', 'https://deploy-preview-7--praxis-duesseldorf.netlify.app/api/bookings');
    expect(readEnv().SITE_URL).toBe('https://deploy-preview-7--praxis-duesseldorf.netlify.app');
    onNetlify('production', 'https://praxis-duesseldorf.netlify.app/api/bookings');
    expect(() => readEnv()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(error.mock.calls.map((c) => c.join(' '))).toEqual(Array(2).fill(expect.stringContaining('set SITE_URL')));
    error.mockRestore();
  });
});
