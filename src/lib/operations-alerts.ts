/**
 * When an operations alert goes out (docs/decisions/045-operations.md): a
 * pure step from one kind's stored state, whether its condition holds now,
 * and now, to the next state and the message to send, if any.
 *
 * - A condition that starts is announced ("alert"), unless an alert of
 *   this kind went out less than an hour ago (a condition that flaps):
 *   then the episode waits for the hour to pass.
 * - While it lasts, it is announced again once an hour ("reminder"; the
 *   first announcement of an episode that had to wait is an "alert").
 * - When it ends, an announced episode gets exactly one "recovery"
 *   ("wieder in Ordnung"); an episode nobody was told of ends silently.
 *
 * So a kind sends at most one alert per hour, and one recovery per alert.
 */

/** What the owner is alerted about. */
export type AlertKind = 'job' | 'outbox' | 'keys' | 'practice-mail';
export const ALERT_KINDS: readonly AlertKind[] = ['job', 'outbox', 'keys', 'practice-mail'];

/** How long after an alert of a kind the next one of that kind may go. */
export const ALERT_REPEAT_MS = 60 * 60_000;

export interface AlertState {
  /** When the current episode began; null while all is well. */
  since: Date | null;
  /** When an alert of this kind last went out (any episode). */
  alertedAt: Date | null;
  /** Whether the current (or the last) episode was announced. */
  episodeAlerted: boolean;
  clearedAt: Date | null;
}

export type AlertMessage = 'alert' | 'reminder' | 'recovery';

export interface AlertStep {
  /** The state to store, or null when nothing changed (nothing is written). */
  next: AlertState | null;
  /** What to send, or null. */
  message: AlertMessage | null;
}

export function alertStep(state: AlertState, failing: boolean, now: Date): AlertStep {
  const mayAlert = !state.alertedAt || now.getTime() - state.alertedAt.getTime() >= ALERT_REPEAT_MS;
  if (failing) {
    if (!state.since) {
      return mayAlert
        ? { next: { ...state, since: now, alertedAt: now, episodeAlerted: true }, message: 'alert' }
        : { next: { ...state, since: now, episodeAlerted: false }, message: null };
    }
    if (!mayAlert) return { next: null, message: null };
    return { next: { ...state, alertedAt: now, episodeAlerted: true }, message: state.episodeAlerted ? 'reminder' : 'alert' };
  }
  if (!state.since) return { next: null, message: null };
  return { next: { ...state, since: null, clearedAt: now }, message: state.episodeAlerted ? 'recovery' : null };
}
