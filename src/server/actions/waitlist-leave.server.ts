/** /api/waitlist/leave: off the list. */
import { waitlistTokenSchema } from '../../lib/waitlist-schema';
import * as z from '../../lib/zod';
import { publicAction } from '../http/route.server';
import { leaveWaitlist } from '../waitlist/entries.server';

const tokenInput = z.object({ token: waitlistTokenSchema });

/** The entry's token (the email's link off the list) or one of its offers' ("Von der Liste nehmen"). */
export const leave = publicAction({
  body: tokenInput,
  run: async ({ db, body }) => {
    await leaveWaitlist(db, body.token);
    return new Response(null, { status: 204 });
  },
});
