import { z } from 'zod';
import { getDb } from '../../db/client';
import { waitlistTokenSchema } from '../../src/lib/waitlist-schema';
import { parseInput, readJson, route } from '../../src/server/http.server';
import { leaveWaitlist } from '../../src/server/waitlist/entries.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';

const tokenInput = z.object({ token: waitlistTokenSchema });

export default route({
  POST: async (req) => {
    // Only the site's own pages (or a mail client without Origin) may change an entry.
    assertSameOrigin(req);
    const { token } = parseInput(tokenInput, await readJson(req));
    // The entry's token (the email's link off the list) or one of its offers' ("Von der Liste nehmen").
    await leaveWaitlist(await getDb(), token);
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/waitlist/leave' };
