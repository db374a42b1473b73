/**
 * Without SITE_URL a local build's site (canonical URLs, sitemap) is a fixed
 * http://localhost:4321, whatever PORT is: the config is part of the digest
 * of Astro's content store, and a config that changed with the port cleared
 * and rewrote the store on every start on a new port
 * (docs/decisions/031-content-editor-second-pass.md).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The part of the config Astro hashes for its content store (all but vite, integrations, adapter). */
async function hashedConfigOn(port: string): Promise<string> {
  vi.resetModules();
  vi.stubEnv('PORT', port);
  const { default: config } = await import('../../astro.config.mjs');
  const { vite: _vite, integrations: _integrations, adapter: _adapter, ...hashed } = config;
  return JSON.stringify(hashed);
}

describe('astro.config.mjs site', () => {
  it('does not follow PORT when SITE_URL is unset', async () => {
    vi.stubEnv('SITE_URL', undefined as unknown as string);
    vi.stubEnv('PORT', '4601');
    const { default: config } = await import('../../astro.config.mjs');
    expect(config.site).toBe('http://localhost:4321');
  }, 60_000);

  it('hashes the same on every port, so alternating ports never clear the content store', async () => {
    vi.stubEnv('SITE_URL', undefined as unknown as string);
    const first = await hashedConfigOn('4601');
    expect(await hashedConfigOn('4602')).toBe(first);
    expect(await hashedConfigOn('0')).toBe(first);
  }, 60_000);

  it('uses SITE_URL when set', async () => {
    vi.stubEnv('SITE_URL', 'https://www.praxis.example');
    vi.stubEnv('PORT', '4601');
    const { default: config } = await import('../../astro.config.mjs');
    expect(config.site).toBe('https://www.praxis.example');
  }, 60_000);
});
