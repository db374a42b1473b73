/**
 * /api/admin/settings: the practice's settings: the second factor required
 * for every account, and which patient requests the public form takes with
 * the notice above it (docs/decisions/036-patient-requests.md). A PUT
 * changes the parts it names; each change is audited.
 */
import { practiceSettingsSchema } from '../../lib/auth-schemas';
import { audited } from '../audit.server';
import { readSettings, updateSettings } from '../auth/second-factor.server';
import type { Database } from '../../../db/client';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { readRequestSettings, saveRequestSettings, settingsLabel } from '../requests/settings.server';

async function allSettings(db: Database) {
  return { ...(await readSettings(db)), requests: await readRequestSettings(db) };
}

export const showSettings = adminAction({ run: async ({ db }) => json(await allSettings(db)) });

export const changeSettings = adminAction({
  body: practiceSettingsSchema,
  run: async ({ db, session, body }) => {
    if (body.require_second_factor !== undefined) await updateSettings(db, session, { require_second_factor: body.require_second_factor });
    const requests = body.requests;
    if (requests) {
      await audited(db, session, { action: 'update', entity: 'settings', entityId: 'practice', label: settingsLabel(requests) }, (tx) => saveRequestSettings(tx, requests));
    }
    return json(await allSettings(db));
  },
});
