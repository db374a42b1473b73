/**
 * The SMS factory and settings (docs/decisions/043-sms-second-channel.md):
 * seven.io when SMS_API_KEY is set; outside production without one, the
 * local stand-in ($DATA_DIR/outbox/*.sms.txt). In production without a key
 * SMS is not offered: forms and the staff dialog hide the choice, every
 * notice that would have gone by SMS goes on the call list, and the
 * dashboard says that SMS is not set up.
 */
import { isProductionEnv, readEnv, variables, type Env } from '../env.server';
import { createSmsOutboxSender } from './outbox.server';
import type { SmsSender } from './port.server';
import { createSevenSender } from './seven.server';

/** The sender name when SMS_SENDER is unset. */
export const DEFAULT_SMS_SENDER = 'Praxis';
/** SMS parts per Berlin month when SMS_MONTHLY_LIMIT is unset. */
export const DEFAULT_SMS_MONTHLY_LIMIT = 300;

/** This process's SMS sender, or null when SMS is not offered (production without SMS_API_KEY). */
export function createSmsSender(env: Env = readEnv()): SmsSender | null {
  const from = env.SMS_SENDER ?? DEFAULT_SMS_SENDER;
  if (env.SMS_API_KEY) return createSevenSender({ apiKey: env.SMS_API_KEY, from });
  if (env.isProduction) return null;
  return createSmsOutboxSender({ from });
}

/** Whether SMS is offered: a provider key, or the local stand-in outside production. */
export function smsConfigured(env: Env = readEnv()): boolean {
  return Boolean(env.SMS_API_KEY) || !env.isProduction;
}

/** Whether SMS is offered, answered without failing: a misconfigured environment offers none. */
export function smsOffered(): boolean {
  try {
    return smsConfigured();
  } catch {
    return false;
  }
}

export function smsMonthlyLimit(env: Env = readEnv()): number {
  return env.SMS_MONTHLY_LIMIT ?? DEFAULT_SMS_MONTHLY_LIMIT;
}

/** Outside production only: SMS at any hour (the browser tests run at any time of day). */
export function smsAnyHour(): boolean {
  const source = variables();
  return !isProductionEnv(source) && source.SMS_ANY_HOUR === 'true';
}
