/** /api/auth/passkeys/:id: one of the own passkeys removed, after the current password or a fresh code. */
import { passkeyRemovalSchema } from '../../lib/passkey-schemas';
import { removePasskey } from '../auth/passkey-store.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const removeOwnPasskey = sessionAction({
  session: 'required',
  item: 'passkey',
  body: passkeyRemovalSchema,
  run: async ({ db, ctx, session, params: { id }, body }) => {
    await removePasskey(db, session, id, body, ctx.ip);
    // The owner's notice of the change (docs/decisions/041) is sent after the answer.
    deliverAfterResponse(ctx);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});
