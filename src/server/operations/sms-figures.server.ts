/**
 * "Systemstatus"'s SMS figure: the SMS handed to the provider this month
 * (Berlin's calendar month) against the monthly limit. The one place the
 * status page asks; the SMS channel's own count and limit take its place
 * where that channel defines them. Until then: outbox rows of channel
 * `sms` handed over (sent_at) since the first of this Berlin month, and no
 * limit.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { rowsOf } from '../bookings/shared.server';
import { berlinToday } from '../../lib/berlin-time';

export interface SmsUsage {
  sent_this_month: number;
  /** SMS per month the practice allows; null when none is set. */
  limit: number | null;
}

export async function smsUsage(db: Executor, now: Date = new Date()): Promise<SmsUsage> {
  const monthStart = `${berlinToday(now).slice(0, 7)}-01`;
  const rows = rowsOf<{ sent: number }>(
    await db.execute(sql`
      select count(*)::int as sent from email_outbox
      where channel = 'sms' and sent_at is not null
        and sent_at >= (${monthStart}::date)::timestamp at time zone 'Europe/Berlin'`),
  );
  return { sent_this_month: Number(rows[0]?.sent ?? 0), limit: null };
}
