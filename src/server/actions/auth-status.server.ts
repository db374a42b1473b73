/** /api/auth/status: whether an admin exists yet (the setup page). */
import { adminExists, setupHint } from '../auth/auth.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const setupStatus = publicAction({ run: async ({ db }) => json({ adminExists: await adminExists(db), setupHint: setupHint() }) });
