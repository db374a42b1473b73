/**
 * Queuing an SMS (docs/decisions/043-sms-second-channel.md): a row of the
 * one outbox (`email_outbox`, channel `sms`), written by the change's own
 * transaction, sealed like an email under the appointment-contact key ring
 * with the row's id as associated data ({number, text}), and sent by the
 * same delivery (../email/delivery.server.ts) with the same lease, backoff,
 * give-up and body retention. Its text is made here from the notice
 * (texts.server.ts), with its short link written in the same transaction.
 * An SMS queued in the quiet hours waits until 07:00 unless it cancels an
 * appointment before noon of the next day.
 *
 * An `SmsPlan` is an SMS not yet queued: the email a patient gets carries
 * one, sealed with it, and the plan is queued when that email bounces or
 * finally fails (the fallback).
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../../db/client';
import { emailOutbox } from '../../../db/schema';
import type { Lang } from '../../i18n/languages';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openJson, sealJson, type Sealed } from '../sealing.server';
import { readEnv } from '../env.server';
import { firstAttemptAt, mayGoAtNight } from './quiet-hours.server';
import { createShortLink, type LinkTarget } from './short-links.server';
import { smsAnyHour } from './sms.server';
import type { SmsNotice } from './texts.server';
import type { SmsMessage } from './port.server';

/** An SMS to queue: to whom (E.164), in which language, what it tells, what its link leads to. */
export interface SmsPlan {
  to: string;
  language: Lang;
  notice: SmsNotice;
  /** The outbox kind, as the email's (`notice-cancelled-by-practice`, `reminder`, …). */
  kind: string;
  bookingId?: string | null;
  /** Where the text's short link leads (dates as ISO strings once sealed: see planFromJson). */
  link?: LinkTarget;
}

/** The same associated data as an email row's: one table, one row id. */
const associatedData = (id: string) => `email:${id}`;

export function openQueuedSms(row: { id: string } & Sealed, keys: KeyRing): SmsMessage {
  return openJson<SmsMessage>(row, associatedData(row.id), keys);
}

/** A plan read back from sealed JSON (its link's expiry came back as a string). */
export function planFromJson(value: SmsPlan): SmsPlan {
  return value.link ? { ...value, link: { ...value.link, expiresAt: new Date(value.link.expiresAt) } } : value;
}

/**
 * Writes the SMS to the outbox through `db` (the change's transaction),
 * each with its short link; answers their ids. `fallbackOf`: the email
 * each stands in for (one SMS per email: a second fallback of the same
 * email is not queued).
 */
export async function enqueueSms(
  db: Executor,
  plans: SmsPlan[],
  keys: KeyRing,
  now: Date = new Date(),
  options: { fallbackOf?: string } = {},
): Promise<string[]> {
  if (!plans.length) return [];
  const siteUrl = readEnv().SITE_URL;
  const ids: string[] = [];
  // The texts (i18next and both languages) load with the first SMS, not with every module that can deliver one.
  const { LINK_PLACEHOLDER, smsTextFor, withLink } = await import('./texts.server');
  for (const plan of plans) {
    const id = randomUUID();
    let text = smsTextFor(plan.notice, plan.language, siteUrl);
    if (text.includes(LINK_PLACEHOLDER)) {
      const code = plan.link ? await createShortLink(db, plan.link, keys, now) : null;
      // A notice whose link has nothing to lead to points at the site itself (never left as a placeholder).
      text = withLink(text, code ? `${new URL(siteUrl).origin}/k/${code}` : new URL(siteUrl).origin);
    }
    const sealed = sealJson({ to: plan.to, text } satisfies SmsMessage, associatedData(id), keys);
    const at = firstAttemptAt(now, mayGoAtNight(plan.notice, now), smsAnyHour());
    const inserted = await db
      .insert(emailOutbox)
      .values({
        id,
        kind: plan.kind,
        audience: 'patient',
        channel: 'sms',
        bookingId: plan.bookingId ?? null,
        keyId: sealed.keyId,
        sealed: sealed.sealed,
        createdAt: now,
        nextAttemptAt: at,
        quietExempt: mayGoAtNight(plan.notice, now),
        fallbackOf: options.fallbackOf ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: emailOutbox.id });
    if (inserted.length) ids.push(id);
  }
  return ids;
}

/**
 * Writes one SMS whose text is already made (an operations alert to the
 * owner's mobile, audience `staff`: no short link, no patient, any hour)
 * through `db`; answers its id.
 */
export async function enqueueStaffSms(db: Executor, message: SmsMessage, kind: string, keys: KeyRing, now: Date = new Date()): Promise<string> {
  const id = randomUUID();
  const sealed = sealJson(message, associatedData(id), keys);
  await db.insert(emailOutbox).values({
    id,
    kind,
    audience: 'staff',
    channel: 'sms',
    keyId: sealed.keyId,
    sealed: sealed.sealed,
    createdAt: now,
    nextAttemptAt: now,
    quietExempt: true,
  });
  return id;
}
