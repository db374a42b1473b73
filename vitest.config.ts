import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two workers, one per core. Projects run in name order, so the deploy
    // test (minutes of child processes: install, Netlify builds) starts first
    // and the other files share the second worker meanwhile; after it, two
    // files at a time. Each integration file has its own database and folders.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          environment: 'node',
          // Files share their worker's modules (docs/architecture.md, Tests):
          // each file loaded the same modules again, a third of this project's
          // time. Its files keep no state between them (checked with shuffled orders).
          isolate: false,
          env: { APP_ENV: 'development' },
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          // Timeouts here and below allow a machine twice as slow as a quiet
          // one, three times over (docs/architecture.md, Tests).
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'islands',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          // As for unit: React, jsdom's modules and the islands loaded once per
          // worker, not once per file (the project's CPU time went from 174 s to 99 s).
          isolate: false,
          env: { APP_ENV: 'development' },
          // tests/setup/fresh-window.ts: each file starts with the shared window reset.
          setupFiles: ['tests/setup/fresh-window.ts', 'tests/setup/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          env: { APP_ENV: 'development' },
          // One real Postgres server for the whole run, started by the harness.
          globalSetup: ['tests/setup/postgres-server.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'deploy',
          // Netlify's bundler and entry point against a real Postgres (tests/deploy/deploy.test.ts).
          include: ['tests/deploy/**/*.test.ts'],
          environment: 'node',
          env: { APP_ENV: 'development' },
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          // Two shared cores: 30 warm function instances take a while to load.
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
