/**
 * Error reports (optional; docs/decisions/045-operations.md): with
 * SENTRY_DSN set, a bug (an answer 500) and a failed job step are sent to
 * Sentry, scrubbed (sentry.server.ts). Without it nothing loads: the SDK
 * is imported on the first report only, so a function's cold start does
 * not pay for it.
 */
import { variables } from '../env.server';

export type { ReportScope } from './sentry.server';
import type { ReportScope } from './sentry.server';

export function errorReportsOn(): boolean {
  return !!variables().SENTRY_DSN;
}

/** Sends one report and waits until it left (a serverless instance may freeze after); never throws. */
export async function reportError(error: unknown, scope: ReportScope): Promise<void> {
  const dsn = variables().SENTRY_DSN;
  if (!dsn) return;
  try {
    const { captureScrubbed } = await import('./sentry.server');
    await captureScrubbed(dsn, error, scope);
  } catch (failure) {
    console.warn(`error report not sent: ${(failure as Error)?.name ?? 'unknown'}`);
  }
}
