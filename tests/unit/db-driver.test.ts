import { describe, expect, it } from 'vitest';
import { driverFor } from '../../db/client';

describe('driverFor picks the database driver from DATABASE_URL', () => {
  it.each([
    [undefined, 'pglite'],
    ['pglite:memory', 'pglite'],
    ['pglite:/tmp/some/dir', 'pglite'],
    ['postgres://u:p@localhost:5432/praxis', 'node-postgres'],
    ['postgresql://u:p@db.internal/praxis?sslmode=require', 'node-postgres'],
    ['postgresql://u:p@ep-cool-bird-123456.eu-central-1.aws.neon.tech/neondb?sslmode=require', 'neon'],
    ['postgres://u:p@ep-x-pooler.neon.tech/db', 'neon'],
    ['postgres://u:p@neon.tech.evil.example/db', 'node-postgres'],
  ] as const)('%s → %s', (url, kind) => {
    expect(driverFor(url)).toBe(kind);
  });

  it('refuses a URL it cannot read, with a clear message', () => {
    expect(() => driverFor('not a url')).toThrow(/DATABASE_URL is not a valid URL/);
  });
});
