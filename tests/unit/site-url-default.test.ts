/** Issue 14: without SITE_URL, the build's site (canonical URLs, sitemap) is the port `npm start` serves on. */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('astro.config.mjs site', () => {
  it('follows PORT when SITE_URL is unset', async () => {
    vi.stubEnv('SITE_URL', undefined as unknown as string);
    vi.stubEnv('PORT', '4601');
    const { default: config } = await import('../../astro.config.mjs');
    expect(config.site).toBe('http://localhost:4601');
  }, 60_000);

  it('uses SITE_URL when set', async () => {
    vi.stubEnv('SITE_URL', 'https://www.praxis.example');
    vi.stubEnv('PORT', '4601');
    const { default: config } = await import('../../astro.config.mjs');
    expect(config.site).toBe('https://www.praxis.example');
  }, 60_000);
});
