import { getDb } from '../../db/client';
import { practiceSettingsSchema } from '../../src/lib/auth-schemas';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { readSettings, updateSettings } from '../../src/server/auth/second-factor.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await readSettings(db));
  },
  PUT: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(practiceSettingsSchema, await readJson(req));
    return json(await updateSettings(db, session, input));
  },
});

export const config = { path: '/api/admin/settings' };
