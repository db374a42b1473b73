/** /api/auth/passkeys/:id: one of the own passkeys removed, after the current password or a fresh code. */
import { passkeyRemovalSchema } from '../../lib/passkey-schemas';
import { removePasskey } from '../auth/passkey-store.server';
import { sessionAction } from '../http/session-route.server';

export const removeOwnPasskey = sessionAction({
  session: 'required',
  item: 'passkey',
  body: passkeyRemovalSchema,
  run: async ({ db, ctx, session, params: { id }, body }) => {
    await removePasskey(db, session, id, body, ctx.ip);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});
