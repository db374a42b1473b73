import { getDb } from '../../db/client';
import { loginSchema } from '../../src/lib/auth-schemas';
import { login } from '../../src/server/auth/auth.server';
import { sessionResponse } from '../../src/server/auth/responses.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(loginSchema, await readJson(req));
    return sessionResponse(req, await login(await getDb(), input, ctx.ip));
  },
});

export const config = { path: '/api/auth/login' };
