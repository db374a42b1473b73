/**
 * /api/admin/holidays: the public holidays (NRW) of a range, each with
 * whether it is closed, and 24/31 December where the practice closes them
 * (docs/decisions/039-public-holidays.md): the day list, the week view and
 * the settings page show them with their German names.
 */
import { holidaysQuerySchema } from '../../lib/admin-schemas';
import { holidaysBetween } from '../../lib/holidays';
import { readHolidaySettings } from '../holiday-settings.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const listHolidays = adminAction({
  query: holidaysQuerySchema,
  run: async ({ db, query: { from, to } }) => json(holidaysBetween(from, to, await readHolidaySettings(db))),
});
