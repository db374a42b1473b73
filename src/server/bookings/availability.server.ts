/**
 * Free dates and times of a type (GET /api/availability, docs/architecture.md HTTP API; staff:
 * GET /api/admin/availability, docs/decisions/021): one database round trip,
 * then the pure rules of src/lib/availability.ts.
 */
import type { Database } from '../../../db/client';
import { availabilityForRange, slotKey, type DayAvailability } from '../../lib/availability';
import { addDaysToDate } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { holidaysBetween, type ClosedDay, type HolidayState } from '../../lib/holidays';
import { hhmm, rulesOf, type BookingRules } from './shared.server';
import { loadRules } from './slot-sql.server';

export interface AvailabilityResponse {
  timezone: 'Europe/Berlin';
  type: string;
  days: DayAvailability[];
  /**
   * The holidays of the range (docs/decisions/039-public-holidays.md). For
   * patients the closed ones (a public holiday the practice has not opened,
   * 24/31 December when it closes them), which `days` leaves out: the
   * wizard marks them "Feiertag". For staff every public holiday with
   * whether it is closed: staff may book a closed one after a warning, so
   * `days` keeps its times.
   */
  holidays: ClosedDay[] | HolidayState[];
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
    closedDates: rules === 'online' ? loaded.closedDays.map((d) => d.date) : [],
    bookings: new Map(loaded.counts.map(([date, time, n]) => [slotKey(date, hhmm(time)), Number(n)])),
    now,
  });
  const holidays = rules === 'online' ? loaded.closedDays : holidaysBetween(query.from, query.to, loaded.holidaySettings);
  return { timezone: 'Europe/Berlin', type: loaded.type.id, days, holidays };
}

/** How many days from a refused date its 409 answers. */
const REFUSED_DAYS = 7;

/**
 * A refused time (409 slot-unavailable: taken meanwhile, blocked, passed)
 * answers with the free times of its date and the next days as the
 * database sees them now (`availability`: from, to, days), so a patient
 * whose page, or the CDN's copy of the month (docs/decisions/044), still
 * showed a taken time picks again from the truth. One more query, only on
 * a refusal; a refusal stays a refusal if that query fails.
 */
export async function withCurrentTimes<T>(db: Database, typeId: string, date: string, attempt: () => Promise<T>, now: Date = new Date()): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'slot-unavailable' || !error.extra?.reason) throw error;
    const to = addDaysToDate(date, REFUSED_DAYS - 1);
    const current = await getAvailability(db, { type: typeId, from: date, to }, now).catch(() => null);
    if (!current) throw error;
    throw new AppError(error.code, error.detail, undefined, { extra: { ...error.extra, availability: { from: date, to, days: current.days } } });
  }
}
