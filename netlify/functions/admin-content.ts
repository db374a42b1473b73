/**
 * The content editor's backend (/admin/inhalte, issue 23): staff only.
 * GET says where saves go (the local working copy or the Git host) and
 * answers 503 not-configured when production lacks the Git settings;
 * POST speaks the editor's protocol (src/server/content/actions.server.ts).
 * The stores, the YAML parser and the schemas load only with a request
 * that needs them.
 */
import { getDb } from '../../db/client';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, readJson, route } from '../../src/server/http.server';
import { contentStore } from '../../src/server/content/store.server';

/** Content files are larger than other requests; both languages of the privacy page together stay far below. */
const MAX_CONTENT_BODY_BYTES = 512 * 1024;

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const store = await contentStore();
    return json({ store: store.kind });
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const store = await contentStore();
    const body = await readJson(req, MAX_CONTENT_BODY_BYTES);
    const { contentAction } = await import('../../src/server/content/actions.server');
    return json(await contentAction(db, store, session, body));
  },
});

export const config = { path: '/api/admin/content' };
