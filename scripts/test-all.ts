/**
 * `npm test` after the layer check: every test, with the two cores kept
 * busy. vitest (unit, islands, integration, deploy; two workers) starts at
 * once; beside it the site is built once and the Playwright suite runs
 * against that build (E2E_PREBUILT: its server does not build again). Once
 * either is done, the date specs run at an instant that is a month's end
 * and a daylight-saving night (scripts/date-matrix.ts --quick) beside the
 * other. The end-to-end suites mostly wait on the browser and
 * the server, so they cost vitest little. Each line of output names its
 * part; a table of the parts and their times closes the run, and the exit
 * code is non-zero if any part failed. A failed part's failures are printed
 * again just before that table, so the end of a long log says what broke.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import os from 'node:os';
import { freePort } from './embedded-postgres';

interface Part {
  name: string;
  seconds: number;
  ok: boolean;
  /** Every line the part printed (kept to repeat a failed part's failures at the end). */
  lines: string[];
}

/** Lines of vitest's and Playwright's output that name a failure or its error. */
const FAILURE_LINE = /\bFAIL\b|FAILED|Failed Tests|[×✘]|Error:|Timed? ?out|Unhandled/;

const started = Date.now();
const parts: Part[] = [];

/** Runs a command with each line of its output prefixed by `name`; resolves true when it exits 0. */
function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const begin = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = `${name.padEnd(6)} │ `;
    const lines: string[] = [];
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        process.stdout.write(`${prefix}${line}\n`);
      });
    child.once('exit', (code, signal) => {
      const ok = code === 0;
      parts.push({ name, seconds: Math.round((Date.now() - begin) / 1000), ok, lines });
      process.stdout.write(`${prefix}${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} after ${Math.round((Date.now() - begin) / 1000)} s\n`);
      resolve(ok);
    });
  });
}

// One port for the run: the pages are built for it (canonical URLs, sitemap) and served on it.
const port = process.env.E2E_PORT ?? String(await freePort());
const prebuilt = { ...process.env, E2E_PREBUILT: '1' };

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.info(`test-all: load average ${load()} at the start`);
const vitest = run('vitest', 'npx', ['vitest', 'run']);
const built = run('build', 'npm', ['run', 'build'], { ...process.env, SITE_URL: `http://localhost:${port}`, APP_ENV: 'development' });
const e2e = built.then((ok) => ok && run('e2e', 'npx', ['playwright', 'test'], { ...prebuilt, E2E_PORT: port }));
// The date specs once vitest or the e2e suite has left its core: ports, clocks and an output
// folder of their own (a Playwright run empties its output folder when it starts), the same build.
const dates = built.then(
  (ok) => ok && Promise.race([vitest, e2e]).then(() => run('dates', 'npx', ['tsx', 'scripts/date-matrix.ts', '--quick', '--output=test-results/dates'], prebuilt)),
);
await Promise.all([vitest, e2e, dates]);

for (const part of parts.filter((p) => !p.ok)) {
  const failures = part.lines.filter((line) => FAILURE_LINE.test(line));
  console.info(`\ntest-all: what failed in ${part.name} (${failures.length} lines naming a failure, then its last lines)`);
  for (const line of failures.slice(0, 120)) console.info(`  ${line}`);
  if (failures.length > 120) console.info(`  … and ${failures.length - 120} more`);
  console.info('  ⋯');
  for (const line of part.lines.slice(-30)) console.info(`  ${line}`);
}
console.info(`\ntest-all: ${Math.round((Date.now() - started) / 1000)} s in all, load average ${load()} at the end`);
for (const part of parts) console.info(`  ${part.ok ? 'passed' : 'FAILED'}  ${part.name.padEnd(6)} ${String(part.seconds).padStart(5)} s`);
process.exit(parts.length === 4 && parts.every((p) => p.ok) ? 0 : 1);
