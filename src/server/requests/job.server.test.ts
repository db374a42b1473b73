import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from '../env.server';
import { retentionDays } from './job.server';

afterEach(() => vi.unstubAllEnvs());

describe('how long a request’s details are kept', () => {
  it('14 days after closing, 90 at most; REQUEST_RETENTION_DAYS only shortens', () => {
    expect(retentionDays()).toEqual({ closed: 14, max: 90 });
    expect(retentionDays(30)).toEqual({ closed: 14, max: 30 });
    expect(retentionDays(3)).toEqual({ closed: 3, max: 3 });
    expect(retentionDays(365)).toEqual({ closed: 14, max: 90 });
  });

  it('reads REQUEST_RETENTION_DAYS as whole days of at least 1; anything else is a configuration fault', () => {
    vi.stubEnv('APP_ENV', 'development');
    vi.stubEnv('REQUEST_RETENTION_DAYS', '30');
    expect(readEnv().REQUEST_RETENTION_DAYS).toBe(30);
    vi.stubEnv('REQUEST_RETENTION_DAYS', '');
    expect(readEnv().REQUEST_RETENTION_DAYS).toBeUndefined();
    for (const bad of ['0', '-3', '2.5', 'zwei Wochen']) {
      vi.stubEnv('REQUEST_RETENTION_DAYS', bad);
      expect(() => readEnv(), bad).toThrow(/REQUEST_RETENTION_DAYS/);
    }
  });
});
