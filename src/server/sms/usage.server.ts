/**
 * What SMS cost this month (docs/decisions/043-sms-second-channel.md): the
 * parts handed to the provider per Berlin month, counted in `sms_usage`
 * (outbox rows are purged, a bill is not), against SMS_MONTHLY_LIMIT. At
 * the limit no further SMS goes: the booking is marked for a call, and the
 * owner (PRACTICE_EMAIL) gets one email a month saying so, without any
 * patient data.
 *
 * `smsUsage` is what the dashboard (GET /api/admin/stats, `sms`) and the
 * system status show.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { berlinToday } from '../../lib/berlin-time';
import { rowsOf } from '../../../db/rows';
import { enqueueEmails } from '../email/queue.server';
import type { KeyRing } from '../appointment-contact/keys.server';
import { readEnv } from '../env.server';
import { smsConfigured, smsMonthlyLimit } from './sms.server';

export interface SmsUsage {
  /** SMS parts handed to the provider this Berlin month (a two-part text counts two, as the bill does). */
  sent_this_month: number;
  /** SMS_MONTHLY_LIMIT (default 300). */
  limit: number;
  /** Whether SMS is offered at all (false: production without SMS_API_KEY). */
  configured: boolean;
}

/** yyyy-MM of `now` in Berlin. */
export function berlinMonth(now: Date): string {
  return berlinToday(now).slice(0, 7);
}

/** This month's count against the limit; reads only. */
export async function smsUsage(db: Executor, now: Date = new Date()): Promise<SmsUsage> {
  const [row] = rowsOf<{ parts: number }>(await db.execute(sql`select parts from sms_usage where month = ${berlinMonth(now)}`));
  return { sent_this_month: Number(row?.parts ?? 0), limit: smsMonthlyLimit(), configured: smsConfigured() };
}

/**
 * Counts `parts` for this month if they fit under `limit`, in one
 * statement (parallel sends queue on the month's row): true when counted,
 * false at the limit (nothing counted).
 */
export async function countParts(db: Executor, parts: number, limit: number, now: Date): Promise<boolean> {
  if (parts > limit) return false;
  const month = berlinMonth(now);
  const at = now.toISOString();
  const counted = await db.execute(sql`
    insert into sms_usage as u (month, parts, updated_at) values (${month}, ${parts}, ${at}::timestamptz)
    on conflict (month) do update set parts = u.parts + ${parts}, updated_at = ${at}::timestamptz
      where u.parts + ${parts} <= ${limit}
    returning parts`);
  return rowsOf(counted).length > 0;
}

/** A send the provider refused was never billed: its parts come off the month it was counted in. */
export async function giveBackParts(db: Executor, parts: number, now: Date): Promise<void> {
  await db.execute(sql`update sms_usage set parts = greatest(0, parts - ${parts}) where month = ${berlinMonth(now)}`);
}

/**
 * The month's limit was reached: the owner is told once a month (the
 * first caller this month claims it), by an email queued in `db`'s
 * transaction. No patient data: only that, and what to do.
 */
export async function noticeLimitReached(db: Executor, keys: KeyRing, limit: number, now: Date): Promise<boolean> {
  const month = berlinMonth(now);
  const claimed = await db.execute(sql`
    insert into sms_usage as u (month, parts, limit_noticed_at) values (${month}, 0, ${now.toISOString()}::timestamptz)
    on conflict (month) do update set limit_noticed_at = excluded.limit_noticed_at where u.limit_noticed_at is null
    returning month`);
  if (rowsOf(claimed).length === 0) return false;
  const env = readEnv();
  const [year, monthNumber] = month.split('-');
  const text = [
    `Das SMS-Kontingent für ${monthNumber}/${year} ist erreicht: ${limit} SMS (SMS_MONTHLY_LIMIT).`,
    '',
    'Bis zum Monatsende gehen keine weiteren SMS hinaus. Patientinnen und Patienten, die eine SMS bekommen hätten,',
    'stehen stattdessen auf der Anrufliste der Verwaltung ("bitte anrufen").',
    '',
    `Wer das Kontingent erhöhen möchte, setzt SMS_MONTHLY_LIMIT höher (README, "SMS"); die Verwaltung zeigt den Stand auf der Übersicht: ${new URL('/admin', env.SITE_URL).href}`,
  ].join('\n');
  await enqueueEmails(
    db,
    [
      {
        message: {
          to: env.PRACTICE_EMAIL,
          subject: `SMS-Kontingent für ${monthNumber}/${year} erreicht`,
          text,
          html: `<!doctype html><html lang="de"><body>${text
            .split('\n\n')
            .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, ' ')}</p>`)
            .join('')}</body></html>`,
        },
        kind: 'practice-sms-limit',
        audience: 'practice',
      },
    ],
    keys,
    now,
  );
  return true;
}
