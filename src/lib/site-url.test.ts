/**
 * A Netlify production build never publishes
 * http://localhost as canonical, sitemap, robots and hreflang origin.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPublicHttpsOrigin, SiteUrlError, siteUrlFor } from './site-url';

const production = { NETLIFY: 'true', CONTEXT: 'production' };

describe('the build-time site URL', () => {
  it('uses SITE_URL in Netlify production, else Netlify URL', () => {
    expect(siteUrlFor({ ...production, SITE_URL: 'https://www.praxis.example/', URL: 'https://praxis.netlify.app' })).toBe('https://www.praxis.example');
    expect(siteUrlFor({ ...production, URL: 'https://praxis.netlify.app' })).toBe('https://praxis.netlify.app');
  });

  it.each([
    [{}, /set SITE_URL/],
    [{ SITE_URL: 'http://localhost:4321' }, /SITE_URL must be .*"http:\/\/localhost:4321"/],
    [{ SITE_URL: 'http://www.praxis.example' }, /SITE_URL must be/],
    [{ SITE_URL: 'https://localhost' }, /SITE_URL must be/],
    [{ SITE_URL: 'https://127.0.0.1' }, /SITE_URL must be/],
    [{ SITE_URL: 'https://www.praxis.example/praxis' }, /SITE_URL must be/],
    [{ SITE_URL: '"https://www.praxis.example"' }, /SITE_URL must be/],
    [{ URL: 'http://praxis.netlify.app' }, /URL must be/],
  ])('fails a Netlify production build without a real https origin (%o)', (vars, message) => {
    expect(() => siteUrlFor({ ...production, ...vars })).toThrow(SiteUrlError);
    expect(() => siteUrlFor({ ...production, ...vars })).toThrow(message);
  });

  it('gives a deploy preview its own address unless SITE_URL is set', () => {
    const preview = { NETLIFY: 'true', CONTEXT: 'deploy-preview', URL: 'https://praxis.netlify.app', DEPLOY_PRIME_URL: 'https://deploy-preview-7--praxis.netlify.app' };
    expect(siteUrlFor(preview)).toBe('https://deploy-preview-7--praxis.netlify.app');
    expect(siteUrlFor({ ...preview, SITE_URL: 'https://www.praxis.example' })).toBe('https://www.praxis.example');
  });

  it('locally: SITE_URL, else a fixed origin that does not follow PORT', () => {
    expect(siteUrlFor({})).toBe('http://localhost:4321');
    expect(siteUrlFor({ PORT: '4601' })).toBe('http://localhost:4321');
    expect(siteUrlFor({ SITE_URL: 'http://localhost:5000' })).toBe('http://localhost:5000');
  });

  it('knows a public https origin', () => {
    expect(isPublicHttpsOrigin('https://praxis.netlify.app')).toBe(true);
    expect(isPublicHttpsOrigin('https://www.praxis.example:8443')).toBe(true);
    for (const bad of [undefined, '', 'https://praxis', 'https://user:pw@praxis.example', 'https://praxis.example/?x=1', 'https://[::1]', 'https://praxis.local']) {
      expect(isPublicHttpsOrigin(bad), String(bad)).toBe(false);
    }
  });
});

describe('astro.config.mjs', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function loadConfig(env: Record<string, string | undefined>) {
    for (const [k, v] of Object.entries({ SITE_URL: undefined, URL: undefined, DEPLOY_PRIME_URL: undefined, ...env })) vi.stubEnv(k, v);
    vi.resetModules();
    return (await import('../../astro.config.mjs')).default;
  }

  it('refuses to load in Netlify production without a site URL, naming SITE_URL', { timeout: 30_000 }, async () => {
    await expect(loadConfig(production)).rejects.toThrow(/set SITE_URL/);
  });

  it('takes Netlify URL in production when SITE_URL is unset', { timeout: 30_000 }, async () => {
    expect((await loadConfig({ ...production, URL: 'https://praxis.netlify.app' })).site).toBe('https://praxis.netlify.app');
  });
});
