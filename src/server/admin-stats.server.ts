/** The dashboard's figures (SPEC.md §2 Admin pages, API.md /api/admin/stats). */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addDaysToDate, berlinToday } from '../lib/berlin-time';
import { EXPIRING_SOON_DAYS } from '../lib/inventory';

export interface AdminStats {
  bookedTotal: number;
  bookedToday: number;
  appointmentTypes: number;
  blockedDates: number;
  /** Items with current_stock <= minimum_stock (SPEC.md §4). */
  lowStock: number;
  /** Items whose expiry date lies within the next 30 days, today included (src/lib/inventory.ts). */
  expiringSoon: number;
  /** Bookings from today on whose practice notification failed: unknown patients to expect. */
  unnotified: number;
}

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
      (select count(*) from booked_slots where not practice_notified and appointment_date >= ${today}::date) as unnotified`);
  const row = (result as unknown as { rows: Array<Record<string, string | number>> }).rows[0]!;
  return {
    bookedTotal: Number(row.booked_total),
    bookedToday: Number(row.booked_today),
    appointmentTypes: Number(row.appointment_types),
    blockedDates: Number(row.blocked_dates),
    lowStock: Number(row.low_stock),
    expiringSoon: Number(row.expiring_soon),
    unnotified: Number(row.unnotified),
  };
}
