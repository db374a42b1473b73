/**
 * Free dates and times of a type (GET /api/availability, docs/architecture.md HTTP API; staff:
 * GET /api/admin/availability, docs/decisions/021): one database round trip,
 * then the pure rules of src/lib/availability.ts.
 */
import type { Database } from '../../../db/client';
import { availabilityForRange, slotKey, type DayAvailability } from '../../lib/availability';
import { AppError } from '../../lib/errors';
import { hhmm, rulesOf, type BookingRules } from './shared.server';
import { loadRules } from './slot-sql.server';

export interface AvailabilityResponse {
  timezone: 'Europe/Berlin';
  type: string;
  days: DayAvailability[];
}

/** Every selectable date in [from, to] with its free times, by the wizard's rules or staff's. */
export async function getAvailability(
  db: Database,
  query: { type: string; from: string; to: string },
  now: Date = new Date(),
  rules: BookingRules = 'online',
): Promise<AvailabilityResponse> {
  const loaded = await loadRules(db, query.type, query.from, query.to, true);
  // A type paused online is not offered to patients at all; staff still book it (docs/decisions/020-reception.md).
  if (!loaded || (rules === 'online' && !loaded.type.onlineBookable)) throw new AppError('not-found', 'Unknown consultation type.');
  const days = availabilityForRange(query.from, query.to, {
    type: rulesOf(loaded.type, rules),
    windows: loaded.windows,
    blockedDates: loaded.blockedDates,
    blockedRanges: loaded.blockedRanges,
    bookings: new Map(loaded.counts.map(([date, time, n]) => [slotKey(date, hhmm(time)), Number(n)])),
    now,
  });
  return { timezone: 'Europe/Berlin', type: loaded.type.id, days };
}
