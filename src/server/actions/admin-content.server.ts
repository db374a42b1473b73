/**
 * /api/admin/content: the content editor's backend (/admin/inhalte), staff
 * only. GET says where saves go (the local working copy or the Git host)
 * and answers 503 not-configured when production lacks the Git settings;
 * POST speaks the editor's protocol (src/server/content/actions.server.ts).
 * The stores, the YAML parser and the schemas load only with a request
 * that needs them.
 */
import { contentStore } from '../content/store.server';
import { json, readJson } from '../http.server';
import { adminAction } from '../http/session-route.server';

/** Content files are larger than other requests; both languages of the privacy page together stay far below. */
const MAX_CONTENT_BODY_BYTES = 512 * 1024;

export const contentStoreKind = adminAction({ run: async () => json({ store: (await contentStore()).kind }) });

export const contentRequest = adminAction({
  run: async ({ db, session, req }) => {
    const store = await contentStore();
    const { contentAction, explainRefusedSave } = await import('../content/actions.server');
    // A file with a hidden character is named by its field (the editor shows it), not as the request's `raw`.
    const body = await readJson(req, MAX_CONTENT_BODY_BYTES, explainRefusedSave);
    return json(await contentAction(db, store, session, body));
  },
});
