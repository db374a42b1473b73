/**
 * The state of the content editor's last publication, for staff
 * (src/server/content/publish-status.server.ts): the local rebuild, or the
 * Git host's commit and Netlify's deploy of it. 503 not-configured where
 * the editor itself is (production without the Git settings).
 */
import { getDb } from '../../db/client';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';
import { contentStore } from '../../src/server/content/store.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const store = await contentStore();
    const { publishStatus } = await import('../../src/server/content/publish-status.server');
    return json(await publishStatus(store));
  },
});

export const config = { path: '/api/admin/content/status' };
