import { getDb } from '../../db/client';
import { adminExists, setupHint } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';

// `setupHint` is the one field added to API.md's: the default secret word
// outside production, null otherwise, so the setup page never hard-codes it.
export default route({
  GET: async () => json({ adminExists: await adminExists(await getDb()), setupHint: setupHint() }),
});

export const config = { path: '/api/auth/status' };
