/** /api/auth/passkeys: "Mein Konto": the own passkeys (name, created, last used; never the key). */
import { listPasskeys } from '../auth/passkey-store.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

export const ownPasskeys = sessionAction({ session: 'enrolment', run: async ({ db, session }) => json(await listPasskeys(db, session.user.id)) });
