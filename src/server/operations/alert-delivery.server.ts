/**
 * How an operations alert travels (docs/decisions/045-operations.md): as
 * outbox messages, queued in the transaction that records the alert's
 * state, so an alert is never recorded as sent without its messages, and
 * it gets the outbox's retries. One email per recipient, audience `staff`
 * (an alert that bounces is not the practice's address bouncing).
 *
 * The channels of one alert are decided here, in queueAlert, and only
 * here. When email itself is the failing part (`emailStuck`: the outbox
 * alert because emails wait), SMS is configured and ALERT_SMS names a
 * mobile number, the owner's mobile gets the alert by SMS too, and so
 * does the all-clear of an episode whose alert went by SMS: one more
 * outbox message of channel `sms`, at any hour. The hourly reminders in
 * between stay email only: one SMS when it breaks, one when it is over.
 *
 * Without any data key the outbox cannot seal a message (a production
 * site without DATA_ENCRYPTION_KEY): the alert then goes straight to the
 * mail service, once, without retries (sendAlertsDirectly).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { rowsOf } from '../bookings/shared.server';
import type { KeyRing } from '../appointment-contact/keys.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { createEmailSender } from '../email/email.server';
import type { EmailMessage } from '../email/port.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { readEnv } from '../env.server';
import { isMobileNumber } from '../sms/numbers.server';
import type { SmsMessage } from '../sms/port.server';
import { enqueueStaffSms } from '../sms/queue.server';
import { createSmsSender, smsConfigured } from '../sms/sms.server';
import { buildAlertEmail, buildAlertSms, type AlertText } from './alert-messages.server';

export interface Alert extends AlertText {
  /** The outbox alert is about emails waiting: email itself may not carry it. */
  emailStuck: boolean;
}

export interface QueuedAlert {
  /** The outbox rows queued for it. */
  ids: string[];
  /** Messages to hand to the mail service directly (no key to seal them). */
  direct: EmailMessage[];
  /** The SMS leg, likewise handed to the SMS provider directly. */
  directSms?: SmsMessage[];
}

/**
 * The owner's mobile for this alert, or null: the alert while emails are
 * stuck, and the all-clear of an episode whose alert went by SMS; never
 * the hourly reminders, and only with SMS set up and ALERT_SMS a mobile.
 */
export async function alertSmsNumber(tx: Executor, alert: Pick<Alert, 'emailStuck' | 'message' | 'since'>): Promise<string | null> {
  if (alert.message === 'reminder') return null;
  const env = readEnv();
  if (!env.ALERT_SMS || !smsConfigured(env)) return null;
  if (alert.message === 'alert' && !alert.emailStuck) return null;
  if (alert.message === 'recovery') {
    const told = rowsOf(
      await tx.execute(sql`
        select 1 from email_outbox where channel = 'sms' and audience = 'staff' and kind = 'operations-alert'
          and created_at >= ${alert.since.toISOString()}::timestamptz limit 1`),
    );
    if (told.length === 0) return null;
  }
  if (await isMobileNumber(env.ALERT_SMS)) return env.ALERT_SMS;
  console.warn('operations alert: ALERT_SMS is not a mobile number; no SMS sent');
  return null;
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
  const mobile = await alertSmsNumber(tx, alert);
  const sms = mobile ? [buildAlertSms(mobile, alert)] : [];
  const ring = keys === undefined ? await dataKeyRingIfAny() : keys;
  if (!ring) return { ids: [], direct: emails.map((e) => e.message), directSms: sms };
  const ids = await enqueueEmails(tx, emails, ring, alert.now);
  for (const message of sms) ids.push(await enqueueStaffSms(tx, message, alertOutboxKind(alert), ring, alert.now));
  return { ids, direct: [] };
}

/** Alerts that could not be queued: handed to the mail service now; a failure is logged by its name. */
export async function sendAlertsDirectly(alerts: QueuedAlert[]): Promise<void> {
  const messages = alerts.flatMap((a) => a.direct);
  const sms = alerts.flatMap((a) => a.directSms ?? []);
  if (messages.length > 0) {
    try {
      const sender = createEmailSender();
      for (const message of messages) await sender.send(message);
    } catch (error) {
      console.warn(`operations alert not sent: ${(error as Error)?.name ?? 'unknown'}`);
    }
  }
  if (sms.length > 0) {
    try {
      const sender = createSmsSender();
      for (const message of sms) await sender?.send(message);
    } catch (error) {
      console.warn(`operations alert SMS not sent: ${(error as Error)?.name ?? 'unknown'}`);
    }
  }
}
