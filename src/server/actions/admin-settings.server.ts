/** /api/admin/settings: the practice's settings (the second factor required for every account). */
import { practiceSettingsSchema } from '../../lib/auth-schemas';
import { readSettings, updateSettings } from '../auth/second-factor.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const showSettings = adminAction({ run: async ({ db }) => json(await readSettings(db)) });

export const changeSettings = adminAction({
  body: practiceSettingsSchema,
  run: async ({ db, session, body }) => json(await updateSettings(db, session, body)),
});
