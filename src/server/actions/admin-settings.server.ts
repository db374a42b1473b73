/**
 * /api/admin/settings: the practice's settings: the second factor required
 * for every account, which patient requests the public form takes with
 * the notice above it (docs/decisions/036-patient-requests.md), and the
 * holidays: public holidays opened all the same, 24/31 December closed
 * (docs/decisions/039-public-holidays.md). A PUT changes the parts it
 * names; each change is audited.
 */
import { practiceSettingsSchema, type HolidaySettingsInput } from '../../lib/auth-schemas';
import { AppError } from '../../lib/errors';
import { publicHolidayOn, type HolidaySettings } from '../../lib/holidays';
import { audited } from '../audit.server';
import { readSettings, updateSettings } from '../auth/second-factor.server';
import type { Database } from '../../../db/client';
import { holidaySettingsDto, holidaySettingsLabel, readHolidaySettings, saveHolidaySettings } from '../holiday-settings.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { readRequestSettings, saveRequestSettings, settingsLabel } from '../requests/settings.server';
import { recordingFreedTimes } from '../waitlist/free-times.server';
import { timesFreed } from '../times-changed.server';

async function allSettings(db: Database) {
  return { ...(await readSettings(db)), requests: await readRequestSettings(db), holidays: holidaySettingsDto(await readHolidaySettings(db)) };
}

/** Only NRW public holidays can be opened: anything else is 400 naming `holidays.opened`, before anything is saved. */
function checkOpened(holidays: HolidaySettingsInput): void {
  const strays = (holidays.opened ?? []).filter((date) => !publicHolidayOn(date));
  if (strays.length) {
    throw new AppError('invalid-input', `Not a public holiday in North Rhine-Westphalia: ${strays.join(', ')}.`, { 'holidays.opened': ['admin.errors.notAHoliday'] });
  }
}

export const showSettings = adminAction({ run: async ({ db }) => json(await allSettings(db)) });

export const changeSettings = adminAction({
  body: practiceSettingsSchema,
  run: async ({ db, session, ctx, body }) => {
    const holidays = body.holidays;
    if (holidays) checkOpened(holidays);
    if (body.require_second_factor !== undefined) await updateSettings(db, session, { require_second_factor: body.require_second_factor });
    const requests = body.requests;
    if (requests) {
      await audited(db, session, { action: 'update', entity: 'settings', entityId: 'practice', label: settingsLabel(requests) }, (tx) => saveRequestSettings(tx, requests));
    }
    if (holidays) {
      await audited(db, session, { action: 'update', entity: 'settings', entityId: 'practice', label: (saved: { after: HolidaySettings }) => holidaySettingsLabel(saved.after) }, (tx) =>
        // A holiday opened frees its times: noted for the waitlist in the same transaction (docs/decisions/038-waitlist-offers-for-freed-times.md).
        recordingFreedTimes(tx, {}, () => saveHolidaySettings(tx, holidays)),
      );
      // Every type's times may open or close: the waitlist is asked and the CDN's availability purged (docs/decisions/044).
      timesFreed(ctx);
    }
    return json(await allSettings(db));
  },
});
