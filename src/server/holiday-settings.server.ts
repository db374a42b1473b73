/**
 * The practice's holiday settings on the one practice_settings row
 * (docs/decisions/039-public-holidays.md): which public holidays it opens
 * (an emergency service) and whether 24 and 31 December are closed. Read
 * inside the availability query (holidaySettingsSql), so availability stays
 * one round trip and a booking two; written by PUT /api/admin/settings.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { practiceSettings } from '../../db/schema';
import { berlinToday } from '../lib/berlin-time';
import { DEFAULT_HOLIDAY_SETTINGS, type HolidaySettings } from '../lib/holidays';

/** The API's shape (GET/PUT /api/admin/settings `holidays`). */
export interface HolidaySettingsDto {
  /** Public holidays (yyyy-MM-dd) opened all the same, from today on. */
  opened: string[];
  close_dec_24: boolean;
  close_dec_31: boolean;
}

/** A scalar subquery: the settings as JSON (null before the practice saved anything). */
export function holidaySettingsSql(): SQL {
  return sql`(select json_build_object('opened', s.holidays_opened, 'closeDec24', s.close_dec_24, 'closeDec31', s.close_dec_31)
    from practice_settings s where s.id)`;
}

/** The settings from holidaySettingsSql's value. */
export function holidaySettingsOf(value: unknown): HolidaySettings {
  if (value === null || value === undefined) return DEFAULT_HOLIDAY_SETTINGS;
  // node-postgres and PGlite parse JSON; a string is parsed here.
  const read = (typeof value === 'string' ? JSON.parse(value) : value) as { opened: string[] | null; closeDec24: boolean; closeDec31: boolean };
  return { opened: read.opened ?? [], closeDec24: read.closeDec24 === true, closeDec31: read.closeDec31 === true };
}

export async function readHolidaySettings(db: Executor): Promise<HolidaySettings> {
  const result = await db.execute(sql`select ${holidaySettingsSql()} as settings`);
  const [row] = (result as unknown as { rows: Array<{ settings: unknown }> }).rows;
  return holidaySettingsOf(row?.settings);
}

export function holidaySettingsDto(settings: HolidaySettings, now: Date = new Date()): HolidaySettingsDto {
  const today = berlinToday(now);
  return { opened: settings.opened.filter((d) => d >= today).sort(), close_dec_24: settings.closeDec24, close_dec_31: settings.closeDec31 };
}

/**
 * Saves what `change` names and keeps the rest (the caller audits, in the
 * same transaction). Opened holidays before today are dropped: they are
 * over.
 */
export async function saveHolidaySettings(
  db: Executor,
  change: Partial<HolidaySettingsDto>,
  now: Date = new Date(),
): Promise<{ before: HolidaySettings; after: HolidaySettings }> {
  const before = await readHolidaySettings(db);
  const today = berlinToday(now);
  const opened = [...new Set(change.opened ?? before.opened)].filter((d) => d >= today).sort();
  const after: HolidaySettings = {
    opened,
    closeDec24: change.close_dec_24 ?? before.closeDec24,
    closeDec31: change.close_dec_31 ?? before.closeDec31,
  };
  const values = { holidaysOpened: opened, closeDec24: after.closeDec24, closeDec31: after.closeDec31, updatedAt: now };
  await db
    .insert(practiceSettings)
    .values({ id: true, ...values })
    .onConflictDoUpdate({ target: practiceSettings.id, set: values });
  return { before, after };
}

/** The audit label of a save ("Feiertage: geöffnet 26.12.2026; 24.12. geschlossen, 31.12. offen"). */
export function holidaySettingsLabel(settings: HolidaySettings): string {
  const german = (date: string) => date.split('-').reverse().join('.');
  const opened = settings.opened.length ? `geöffnet ${settings.opened.map(german).join(', ')}` : 'keiner geöffnet';
  const closed = (on: boolean) => (on ? 'geschlossen' : 'offen');
  return `Feiertage: ${opened}; 24.12. ${closed(settings.closeDec24)}, 31.12. ${closed(settings.closeDec31)}`;
}
