/**
 * e2e tests drive Debian's Chromium against the built site served by
 * `npm start`, on a free port, with a fresh embedded database and outbox.
 * The port and data folder are chosen once in the main process; workers
 * inherit them through the environment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { clockEnv } from './tests/e2e/helpers/clock';

if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
// Tests that run the handlers in their own process (a second server with its
// own database, admin-auth.spec) are local development too: functions are
// production unless APP_ENV=development, and production refuses PGlite.
process.env.APP_ENV ??= 'development';
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'praxis-e2e-'));
}

const port = Number(process.env.E2E_PORT);
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  // Sized for a machine far busier than twice a quiet one: with other heavy
  // jobs on the two cores (load average about 20) the slowest test without a
  // timeout of its own took 31 s; a test taking longer sets its own.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // A trace costs a quarter of the suite's time (DOM snapshots and
    // screenshots of every step) and CI keeps only the printed output: off
    // there; kept for failures on a developer's machine (`--trace on` forces it).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // The public pages register a service worker that precaches about 120
    // files: in a fresh context per test that was a third of the public
    // specs' CPU. Blocked here; tests/e2e/pwa.spec.ts allows it and books
    // through the worker, so the site with its worker is still covered.
    serviceWorkers: 'block',
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    launchOptions: {
      // Debian's headless shell (`apt-get install chromium-headless-shell`): the
      // headless build Playwright itself uses by default, at half the CPU of
      // the full browser in headless mode.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // `npm start` builds first; E2E_PREBUILT=1 serves the dist/ built just before (npm test, npm run test:e2e:dates).
    command: process.env.E2E_PREBUILT ? 'npm run serve' : 'npm start',
    url: `${baseURL}/api/appointment-types`,
    // The build takes about a minute on a quiet two-core machine and past four
    // with three other heavy jobs beside it; starting the server, seconds.
    timeout: process.env.E2E_PREBUILT ? 120_000 : 600_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      APP_ENV: 'development',
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      POSTMARK_SERVER_TOKEN: '',
      SITE_URL: baseURL,
      // Every e2e booking comes from 127.0.0.1; development only, ignored in production.
      BOOKINGS_PER_CLIENT_MAX: '1000',
      REQUESTS_PER_CLIENT_MAX: '1000',
      // The tests run at any time of day; offers otherwise wait for 07:00–20:00 (development only).
      WAITLIST_OFFERS_ANY_HOUR: 'true',
      // Likewise SMS, which otherwise wait out 20:00–07:00 (development only; docs/decisions/043).
      SMS_ANY_HOUR: 'true',
      // E2E_NOW=2026-12-31T19:30:00+01:00 runs the suite on that day (tests/e2e/helpers/clock.ts).
      ...clockEnv(),
    },
  },
});
