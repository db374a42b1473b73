/**
 * How an operations alert travels (docs/decisions/045-operations.md): as
 * outbox messages, queued in the transaction that records the alert's
 * state, so an alert is never recorded as sent without its messages, and
 * it gets the outbox's retries. One email per recipient, audience `staff`
 * (an alert that bounces is not the practice's address bouncing).
 *
 * The channels of one alert are decided here, in queueAlert, and only
 * here. When email itself is the failing part (`emailStuck`: the outbox
 * alert because emails wait) and SMS is configured, the owner's mobile
 * gets the alert by SMS too: that leg is one more outbox message with
 * channel `sms`, added to `prepared` below.
 *
 * Without any data key the outbox cannot seal a message (a production
 * site without DATA_ENCRYPTION_KEY): the alert then goes straight to the
 * mail service, once, without retries (sendAlertsDirectly).
 */
import type { Executor } from '../../../db/client';
import type { KeyRing } from '../appointment-contact/keys.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { createEmailSender } from '../email/email.server';
import type { EmailMessage } from '../email/port.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { buildAlertEmail, type AlertText } from './alert-messages.server';

export interface Alert extends AlertText {
  /** The outbox alert is about emails waiting: email itself may not carry it. */
  emailStuck: boolean;
}

export interface QueuedAlert {
  /** The outbox rows queued for it. */
  ids: string[];
  /** Messages to hand to the mail service directly (no key to seal them). */
  direct: EmailMessage[];
}

/** The outbox kind of alert messages (back office lists show kinds, never contents). */
export function alertOutboxKind(alert: Pick<Alert, 'message'>): string {
  return alert.message === 'recovery' ? 'operations-recovered' : 'operations-alert';
}

/** Queues one alert for every recipient through `tx` (the transaction recording it). */
export async function queueAlert(tx: Executor, alert: Alert, recipients: string[], keys?: KeyRing | null): Promise<QueuedAlert> {
  const emails: QueuedEmail[] = recipients.map((to) => ({
    message: buildAlertEmail(to, alert),
    kind: alertOutboxKind(alert),
    audience: 'staff',
  }));
  // The SMS leg for the owner's mobile (when `alert.emailStuck` and SMS is configured) is added here.
  const ring = keys === undefined ? await dataKeyRingIfAny() : keys;
  if (!ring) return { ids: [], direct: emails.map((e) => e.message) };
  return { ids: await enqueueEmails(tx, emails, ring, alert.now), direct: [] };
}

/** Alerts that could not be queued: handed to the mail service now; a failure is logged by its name. */
export async function sendAlertsDirectly(alerts: QueuedAlert[]): Promise<void> {
  const messages = alerts.flatMap((a) => a.direct);
  if (messages.length === 0) return;
  try {
    const sender = createEmailSender();
    for (const message of messages) await sender.send(message);
  } catch (error) {
    console.warn(`operations alert not sent: ${(error as Error)?.name ?? 'unknown'}`);
  }
}
