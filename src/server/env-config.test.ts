import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseSettings, readEnv, variables } from './env.server';
import { PRODUCTION_VARIABLES } from '../../tests/helpers/env';

const production = PRODUCTION_VARIABLES;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the config module reads the environment once and hands it down', () => {
  it('parses once while the variables are unchanged, again when one changes', () => {
    vi.stubEnv('SITE_URL', 'https://one.example');
    const first = readEnv();
    expect(readEnv()).toBe(first);
    expect(variables()).toBe(variables());
    vi.stubEnv('SITE_URL', 'https://two.example');
    expect(readEnv().SITE_URL).toBe('https://two.example');
    expect(readEnv()).not.toBe(first);
  });

  it('never keeps a configuration fault: each call answers it again, and a fix takes effect at once', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [name, value] of Object.entries(production)) vi.stubEnv(name, value);
    vi.stubEnv('APP_ENV', 'production');
    vi.stubEnv('JWT_SECRET', 'short');
    expect(() => readEnv()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(() => readEnv()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[0]![0]).toContain('JWT_SECRET');
    vi.stubEnv('JWT_SECRET', production.JWT_SECRET);
    expect(readEnv().isProduction).toBe(true);
    log.mockRestore();
  });

  it('hands the database its settings: URL (or Netlify’s), data dir, pool size and timeouts', () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('NETLIFY_DATABASE_URL', 'postgres://u:p@neon.example/db');
    vi.stubEnv('DATA_DIR', '/tmp/praxis-data');
    vi.stubEnv('DATABASE_POOL_SIZE', '3');
    vi.stubEnv('DATABASE_CONNECT_TIMEOUT_MS', '1500');
    vi.stubEnv('DATABASE_STATEMENT_TIMEOUT_MS', '2500');
    expect(databaseSettings()).toEqual({
      url: 'postgres://u:p@neon.example/db',
      dataDir: '/tmp/praxis-data',
      poolSize: 3,
      connectTimeoutMs: 1500,
      statementTimeoutMs: 2500,
    });
  });

  it('refuses the embedded database in production (503 not-configured naming DATABASE_URL)', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubEnv('APP_ENV', 'production');
    vi.stubEnv('DATABASE_URL', 'pglite:memory');
    expect(() => databaseSettings()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('NETLIFY_DATABASE_URL', '');
    expect(() => databaseSettings()).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(log.mock.calls.every((c) => String(c[0]).includes('DATABASE_URL'))).toBe(true);
    vi.stubEnv('APP_ENV', 'development');
    expect(databaseSettings().url).toBeUndefined();
    log.mockRestore();
  });
});

describe('a production process without the mail webhook credentials', () => {
  it('warns once, naming both variables and no value, and keeps working', async () => {
    vi.resetModules();
    const fresh = await import('./env.server');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const [name, value] of Object.entries(production)) vi.stubEnv(name, value);
    vi.stubEnv('APP_ENV', 'production');
    vi.stubEnv('POSTMARK_WEBHOOK_USER', 'a'.repeat(48));
    vi.stubEnv('POSTMARK_WEBHOOK_PASSWORD', '');
    expect(fresh.readEnv().isProduction).toBe(true);
    vi.stubEnv('SITE_URL', 'https://other.praxis.example');
    expect(fresh.readEnv().SITE_URL).toBe('https://other.praxis.example');
    const lines = warn.mock.calls.map((c) => c.map(String).join(' '));
    expect(lines).toEqual([expect.stringContaining('POSTMARK_WEBHOOK_USER, POSTMARK_WEBHOOK_PASSWORD')]);
    expect(lines[0]).not.toContain('a'.repeat(48));
    warn.mockRestore();
  });

  it('says nothing when both are set, nor outside production', async () => {
    vi.resetModules();
    const fresh = await import('./env.server');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const [name, value] of Object.entries(production)) vi.stubEnv(name, value);
    vi.stubEnv('APP_ENV', 'production');
    vi.stubEnv('POSTMARK_WEBHOOK_USER', 'u'.repeat(48));
    vi.stubEnv('POSTMARK_WEBHOOK_PASSWORD', 'p'.repeat(48));
    fresh.readEnv();
    vi.stubEnv('APP_ENV', 'development');
    vi.stubEnv('POSTMARK_WEBHOOK_USER', '');
    fresh.readEnv();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
