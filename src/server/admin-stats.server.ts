/** The dashboard's figures. */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addDaysToDate, berlinToday } from '../lib/berlin-time';
import { EXPIRING_SOON_DAYS } from '../lib/inventory';
import { smsUsage, type SmsUsage } from './sms/usage.server';

export interface AdminStats {
  bookedTotal: number;
  bookedToday: number;
  appointmentTypes: number;
  blockedDates: number;
  /** Items with current_stock <= minimum_stock. */
  lowStock: number;
  /** Items whose expiry date lies within the next 30 days, today included (src/lib/inventory.ts). */
  expiringSoon: number;
  /** Bookings from today on whose practice notification failed: unknown patients to expect. */
  unnotified: number;
  /** Patient requests not yet worked on, and all still open (new and in progress; docs/decisions/036). */
  requestsNew: number;
  requestsOpen: number;
  /**
   * Bookings from today on (live, or cancelled by the practice) whose
   * patient must be called: no email could tell them of a change, or one
   * bounced or finally failed ("bitte anrufen", docs/decisions/035).
   */
  needsCall: number;
  /**
   * When the practice's own address last refused a message (a bounce or a
   * complaint not followed by a delivery to it): admins see a banner. Null
   * when all is well.
   */
  practiceMailBouncedAt: string | null;
  /**
   * Per type with any arrival marked in the last 90 days (today included):
   * "nicht erschienen" and all marked bookings over the last 30 and 90
   * days (docs/decisions/026). Sorted by type name.
   */
  noShows: NoShowFigures[];
  /** SMS parts handed to the provider this Berlin month against SMS_MONTHLY_LIMIT, and whether SMS is set up (docs/decisions/043-sms-second-channel.md). */
  sms: SmsUsage;
}

export interface NoShowFigures {
  appointment_type_id: string;
  type_name: string;
  no_show_30: number;
  marked_30: number;
  no_show_90: number;
  marked_90: number;
}

/** The days the no-show figures look back over, today included. */
export const NO_SHOW_PERIODS = [30, 90] as const;

export async function adminStats(db: Database, now: Date = new Date()): Promise<AdminStats> {
  const today = berlinToday(now);
  const result = await db.execute(sql`
    select
      (select count(*) from booked_slots) as booked_total,
      (select count(*) from booked_slots where appointment_date = ${today}::date) as booked_today,
      (select count(*) from appointment_types) as appointment_types,
      (select count(*) from blocked_dates) as blocked_dates,
      (select count(*) from inventory_items where current_stock <= minimum_stock) as low_stock,
      (select count(*) from inventory_items
        where expiry_date between ${today}::date and ${addDaysToDate(today, EXPIRING_SOON_DAYS)}::date) as expiring_soon,
      (select count(*) from booked_slots where not practice_notified and appointment_date >= ${today}::date) as unnotified,
      (select count(*) from patient_requests where status = 'new') as requests_new,
      (select count(*) from patient_requests where status in ('new', 'in_progress')) as requests_open,
      (select count(*) from booked_slots where not patient_notified and appointment_date >= ${today}::date)
        + (select count(*) from cancelled_bookings
            where not patient_notified and cancelled_by = 'practice' and appointment_date >= ${today}::date) as needs_call,
      (select max(coalesce(o.event_at, o.created_at))::text from email_outbox o
        where o.audience = 'practice' and o.status in ('bounced', 'complained', 'failed')
          and not exists (select 1 from email_outbox d where d.audience = 'practice' and d.status = 'delivered'
            and d.event_at > coalesce(o.event_at, o.created_at))) as practice_bounced_at`);
  const row = (result as unknown as { rows: Array<Record<string, string | number>> }).rows[0]!;
  const since30 = addDaysToDate(today, -(NO_SHOW_PERIODS[0] - 1));
  const since90 = addDaysToDate(today, -(NO_SHOW_PERIODS[1] - 1));
  const noShows = await db.execute(sql`
    select t.id as appointment_type_id, t.name as type_name,
      count(*) filter (where b.attendance = 'no_show' and b.appointment_date >= ${since30}::date) as no_show_30,
      count(*) filter (where b.attendance is not null and b.appointment_date >= ${since30}::date) as marked_30,
      count(*) filter (where b.attendance = 'no_show') as no_show_90,
      count(*) as marked_90
    from booked_slots b join appointment_types t on t.id = b.appointment_type_id
    where b.attendance is not null and b.appointment_date between ${since90}::date and ${today}::date
    group by t.id, t.name
    order by t.name`);
  const sms = await smsUsage(db, now);
  return {
    bookedTotal: Number(row.booked_total),
    bookedToday: Number(row.booked_today),
    appointmentTypes: Number(row.appointment_types),
    blockedDates: Number(row.blocked_dates),
    lowStock: Number(row.low_stock),
    expiringSoon: Number(row.expiring_soon),
    unnotified: Number(row.unnotified),
    requestsNew: Number(row.requests_new),
    requestsOpen: Number(row.requests_open),
    needsCall: Number(row.needs_call),
    practiceMailBouncedAt: row.practice_bounced_at ? new Date(String(row.practice_bounced_at)).toISOString() : null,
    noShows: (noShows as unknown as { rows: Array<Record<string, string | number>> }).rows.map((r) => ({
      appointment_type_id: String(r.appointment_type_id),
      type_name: String(r.type_name),
      no_show_30: Number(r.no_show_30),
      marked_30: Number(r.marked_30),
      no_show_90: Number(r.no_show_90),
      marked_90: Number(r.marked_90),
    })),
    sms,
  };
}
