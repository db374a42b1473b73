/**
 * The tests at the instants where dates go wrong: a month's last days, 31
 * December (also late in the day), the evenings before both Berlin
 * daylight-saving switches and the nights just after them.
 *
 * `npm run test:e2e:dates`: the e2e specs that pick or compute dates, with
 * the suite's clock at each instant (E2E_NOW, tests/e2e/helpers/clock.ts).
 * Builds the site once, then runs Playwright once per instant, each with a
 * fresh server and database.
 *
 * `npm run test:unit:dates` (`--unit`): the unit and island tests, in a
 * process whose clock starts at each instant (scripts/clock-preload.mjs);
 * tests that freeze the clock are untouched, the others must hold too.
 *
 * Prints which instants passed; exits non-zero if any failed.
 *
 *   npm run test:e2e:dates                          every instant, every date spec
 *   npm run test:e2e:dates -- --quick               the subset `npm test` runs
 *   npm run test:e2e:dates -- 2027-03-28T03:05:00+02:00 reschedule.spec.ts
 *                                                   the instants and specs named
 *   (other options, such as --output=dir, go to Playwright or vitest)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The instants, each with why it is hard. */
export const INSTANTS: Array<[instant: string, why: string]> = [
  ['2026-11-28T09:30:00+01:00', "a month's last days: the calendar turns within the week ahead"],
  ['2027-01-29T16:45:00+01:00', "a month's last Friday afternoon, the weekend and the next month ahead"],
  ['2026-12-31T09:30:00+01:00', '31 December: next week is next year'],
  ['2026-12-31T19:30:00+01:00', '31 December after the practice closed: today has no time left'],
  ['2027-03-27T21:30:00+01:00', 'the evening before clocks spring forward (the next day has 23 hours)'],
  ['2027-03-28T03:05:00+02:00', 'just after the spring switch'],
  ['2027-10-30T21:30:00+02:00', 'the evening before clocks fall back (the next day has 25 hours)'],
  ['2027-10-31T02:30:00+01:00', 'in the repeated hour, just after the autumn switch'],
];

/** Every spec that picks a date, computes one from today, or books. */
export const DATE_SPECS = [
  'clock.spec.ts',
  'booking.spec.ts',
  'patient-wizard-place.spec.ts',
  'patient-ux.spec.ts',
  'patient-details.spec.ts',
  'reschedule.spec.ts',
  'reminders.spec.ts',
  'waitlist.spec.ts',
  'admin-back-office.spec.ts',
  'practice-operations.spec.ts',
  'practice-changes.spec.ts',
  'reception.spec.ts',
  'staff-messages-devices.spec.ts',
  'reception-messages.spec.ts',
  'reception-patients.spec.ts',
  'arrival.spec.ts',
  'staff-accounts.spec.ts',
  'second-factor.spec.ts',
  'back-office-details.spec.ts',
  'printouts.spec.ts',
  'wizard-reload.spec.ts',
  'second-factor-codes.spec.ts',
  'holidays.spec.ts',
  'no-javascript.spec.ts',
  'sms.spec.ts',
  'pwa.spec.ts',
];

/**
 * What `npm test` runs: one instant that is both a month's last days and a
 * daylight-saving night (30 October 2027, 21:30: tomorrow has 25 hours and
 * the week ahead is in November) over the calendar specs. The whole matrix
 * is `npm run test:e2e:dates`.
 */
export const QUICK = {
  instants: ['2027-10-30T21:30:00+02:00'],
  specs: ['clock.spec.ts', 'booking.spec.ts', 'reschedule.spec.ts', 'practice-operations.spec.ts', 'reception.spec.ts'],
};

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const unit = args.includes('--unit');
  // Other options go to Playwright or vitest (e.g. --output=dir).
  const passed = args.filter((a) => a.startsWith('--') && a !== '--quick' && a !== '--unit');
  const named = args.filter((a) => !a.startsWith('--'));
  const instantsNamed = named.filter((a) => /^\d{4}-\d{2}-\d{2}T/.test(a));
  const specsNamed = named.filter((a) => !instantsNamed.includes(a));
  const instants = instantsNamed.length ? instantsNamed : quick ? QUICK.instants : INSTANTS.map(([i]) => i);
  const specs = (specsNamed.length ? specsNamed : quick ? QUICK.specs : DATE_SPECS).map((s) => `tests/e2e/${s.replace(/^tests\/e2e\//, '')}`);

  if (unit) {
    const preload = pathToFileURL(path.resolve(import.meta.dirname, 'clock-preload.mjs')).href;
    const results: Array<{ instant: string; ok: boolean; seconds: number }> = [];
    for (const instant of instants) {
      console.info(`\n=== CLOCK_NOW=${instant}: ${INSTANTS.find(([i]) => i === instant)?.[1] ?? 'named'} ===`);
      const started = Date.now();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        APP_ENV: 'development',
        CLOCK_NOW: instant,
        CLOCK_NOW_AT: String(Date.now()),
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(),
      };
      const code = await run('npx', ['vitest', 'run', '--project', 'unit', '--project', 'islands', ...passed, ...specsNamed], env);
      results.push({ instant, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) });
    }
    report('Unit and island tests', results);
    return;
  }
  if (!process.env.E2E_PREBUILT) {
    const built = await run('npm', ['run', 'build']);
    if (built !== 0) process.exit(built);
  }
  const results: Array<{ instant: string; ok: boolean; seconds: number }> = [];
  for (const instant of instants) {
    console.info(`\n=== E2E_NOW=${instant}: ${INSTANTS.find(([i]) => i === instant)?.[1] ?? 'named'} ===`);
    const started = Date.now();
    const env: NodeJS.ProcessEnv = { ...process.env, E2E_NOW: instant, E2E_PREBUILT: '1' };
    // Each run chooses its own port, data folder and start of the clock.
    for (const own of ['E2E_PORT', 'E2E_DATA_DIR', 'E2E_NOW_AT'] as const) delete env[own];
    const code = await run('npx', ['playwright', 'test', ...passed, ...specs], env);
    results.push({ instant, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) });
  }
  report('Date-picking specs', results);
}

function report(what: string, results: Array<{ instant: string; ok: boolean; seconds: number }>): never {
  console.info(`\n${what} by instant:`);
  for (const r of results) console.info(`  ${r.ok ? 'passed' : 'FAILED'}  ${r.instant}  (${r.seconds} s)`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}

// Run as a script, not when a test imports the lists.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
