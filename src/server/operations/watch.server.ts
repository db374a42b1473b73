/**
 * A stopped job is noticed by whatever runs next (docs/decisions/045-operations.md):
 * after any request's answer, at most once a minute per process, one read
 * of the job's heartbeat; only when it is stale are the alerts judged
 * (alerts.server.ts, loaded then). Kept tiny: every function imports it.
 *
 * On where a scheduled job is expected to run: production (Netlify's
 * scheduled function) and the local server, which runs the job on a timer
 * and says so (expectScheduledJob). Tests that call handlers without a job
 * would otherwise see alerts for a job nobody runs.
 */
import { isProductionEnv } from '../env.server';

/** At most one heartbeat read per process in this time. */
export const WATCH_INTERVAL_MS = 60_000;

let expected: boolean | undefined;
let lastWatch = Number.NEGATIVE_INFINITY;

/** The local server runs the job: watch its heartbeat there too (tests switch it on and off; null: back to the default). */
export function expectScheduledJob(value: boolean | null = true): void {
  if (expected === (value ?? undefined)) return;
  expected = value ?? undefined;
  lastWatch = Number.NEGATIVE_INFINITY;
}

function watching(): boolean {
  return expected ?? isProductionEnv();
}

/** After the answer: check the job's heartbeat, if this process has not in the last minute. */
export function watchAfterResponse(ctx: { waitUntil(promise: Promise<unknown>): void }): void {
  if (!watching()) return;
  const now = Date.now();
  if (now - lastWatch < WATCH_INTERVAL_MS) return;
  lastWatch = now;
  // On a later turn, once the answer is handed over (as http.server.ts's afterResponse); a failure is logged by its name only.
  ctx.waitUntil(
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        const [{ checkAlertsFromRequest }, { getDb }] = await Promise.all([import('./alerts.server'), import('../database.server')]);
        await checkAlertsFromRequest(await getDb(), new Date());
      })
      .catch((error: unknown) => console.warn(`operations watch failed: ${error instanceof Error ? error.name : 'unknown error'}`)),
  );
}
