/**
 * The waitlist for staff (docs/decisions/032-waitlist.md): how many wait per
 * type and day (the week view, the dashboard; no names, nothing opened),
 * and the list itself with names, range and when they asked: staff
 * sessions only, `no-store`, each answer one audit row with the count.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTimeSlots, appointmentTypes, bookedSlots, waitlistEntries } from '../../../db/schema';
import { timesOfDate, type WeeklyWindow } from '../../lib/availability';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { closedDaysBetween } from '../../lib/holidays';
import { daypartsOfMask, fitsEntry, weekdaysOfMask, type Daypart } from '../../lib/waitlist-wish';
import { readHolidaySettings } from '../holiday-settings.server';
import type { KeyRing } from '../appointment-contact/keys.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { hhmm } from '../bookings/shared.server';
import { openEntryOrNull } from './seal.server';

async function entries(db: Database) {
  const rows = await db
    .select({
      id: waitlistEntries.id,
      typeId: waitlistEntries.appointmentTypeId,
      typeName: appointmentTypes.name,
      slotDurationMinutes: appointmentTypes.slotDurationMinutes,
      fromDate: waitlistEntries.fromDate,
      toDate: waitlistEntries.toDate,
      weekdays: waitlistEntries.weekdays,
      dayparts: waitlistEntries.dayparts,
      keyId: waitlistEntries.keyId,
      sealed: waitlistEntries.sealed,
      createdAt: waitlistEntries.createdAt,
      bookingDate: bookedSlots.appointmentDate,
      bookingTime: bookedSlots.appointmentTime,
      reference: bookedSlots.reference,
    })
    .from(waitlistEntries)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, waitlistEntries.appointmentTypeId))
    .leftJoin(bookedSlots, eq(bookedSlots.id, waitlistEntries.bookingId))
    .orderBy(asc(waitlistEntries.createdAt));
  return rows.map(({ bookingDate, bookingTime, ...row }) => ({
    ...row,
    current: bookingDate && bookingTime ? { date: bookingDate, time: hhmm(bookingTime) } : null,
  }));
}

export interface WaitlistCounts {
  /** Everyone on the list. */
  total: number;
  /** Per day in [from, to] and type: how many would take a time that day. */
  days: Array<{ date: string; appointment_type_id: string; type_name: string; count: number }>;
}

/** The weekly windows of each of `typeIds`. */
async function windowsOf(db: Database, typeIds: string[]): Promise<Map<string, WeeklyWindow[]>> {
  const byType = new Map<string, WeeklyWindow[]>();
  if (!typeIds.length) return byType;
  const rows = await db
    .select({
      typeId: appointmentTimeSlots.appointmentTypeId,
      dayOfWeek: appointmentTimeSlots.dayOfWeek,
      startTime: appointmentTimeSlots.startTime,
      endTime: appointmentTimeSlots.endTime,
    })
    .from(appointmentTimeSlots)
    .where(inArray(appointmentTimeSlots.appointmentTypeId, typeIds));
  for (const { typeId, ...window } of rows) byType.set(typeId, [...(byType.get(typeId) ?? []), window]);
  return byType;
}

/**
 * GET /api/admin/waitlist/counts?from&to: no names, no audit. An entry
 * counts on a day only when its type has a start time that day that fits
 * it (its weekdays, part of the day, earlier than its booking): a day
 * without windows, or one the practice is closed (a public holiday,
 * docs/decisions/039-public-holidays.md), has nothing to offer anyone.
 */
export async function waitlistCounts(db: Database, from: string, to: string): Promise<WaitlistCounts> {
  const all = await entries(db);
  const windows = await windowsOf(db, [...new Set(all.map((e) => e.typeId))]);
  const closed = new Set(closedDaysBetween(from, to, await readHolidaySettings(db)).map((d) => d.date));
  const days: WaitlistCounts['days'] = [];
  for (let date = from; date <= to; date = addDaysToDate(date, 1)) {
    if (closed.has(date)) continue;
    const perType = new Map<string, { name: string; count: number }>();
    for (const e of all) {
      const times = timesOfDate(date, windows.get(e.typeId) ?? [], e.slotDurationMinutes);
      if (!times.some((time) => fitsEntry(e, date, time))) continue;
      const row = perType.get(e.typeId) ?? { name: e.typeName, count: 0 };
      row.count++;
      perType.set(e.typeId, row);
    }
    for (const [id, { name, count }] of perType) days.push({ date, appointment_type_id: id, type_name: name, count });
  }
  return { total: all.length, days };
}

export interface StaffWaitlistEntry {
  id: string;
  appointment_type_id: string;
  type_name: string;
  /** Null when no configured key opens the entry. */
  first_name: string | null;
  last_name: string | null;
  birth_date: string | null;
  from: string;
  to: string;
  weekdays: number[];
  dayparts: Daypart[];
  asked_at: string;
  /** The booking to be moved earlier, or null (no booking yet). */
  current: { date: string; time: string; reference: string | null } | null;
}

/** GET /api/admin/waitlist: the list with names; one audit row (`view`, `waitlist`, the count). */
export async function staffWaitlist(db: Database, actor: AuditActor, keys: KeyRing | null, now: Date = new Date()): Promise<StaffWaitlistEntry[]> {
  const today = berlinToday(now);
  const list = (await entries(db))
    .filter((e) => e.toDate >= today)
    .map((e) => {
      const secret = openEntryOrNull({ keyId: e.keyId, sealed: e.sealed }, e.id, keys);
      return {
        id: e.id,
        appointment_type_id: e.typeId,
        type_name: e.typeName,
        first_name: secret?.firstName ?? null,
        last_name: secret?.lastName ?? null,
        birth_date: secret?.birthDate ?? null,
        from: e.fromDate,
        to: e.toDate,
        weekdays: weekdaysOfMask(e.weekdays),
        dayparts: daypartsOfMask(e.dayparts),
        asked_at: e.createdAt.toISOString(),
        current: e.current ? { ...e.current, reference: e.reference } : null,
      };
    });
  await recordAudit(db, actor, { action: 'view', entity: 'waitlist', entityId: today, label: `Warteliste: ${list.length} Einträge` }, now);
  return list;
}

