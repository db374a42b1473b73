import { getDb } from '../../db/client';
import { adminSetupSchema } from '../../src/lib/auth-schemas';
import { setupFirstAdmin } from '../../src/server/auth/auth.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { assertUncommonPassword } from '../../src/server/auth/password-policy.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(adminSetupSchema, await readJson(req));
    await assertUncommonPassword(input.password, 'password');
    const user = await setupFirstAdmin(await getDb(), input, ctx.ip);
    return json({ user }, { status: 201 });
  },
});

export const config = { path: '/api/auth/setup' };
