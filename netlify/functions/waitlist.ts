import { getDb } from '../../db/client';
import { AppError } from '../../src/lib/errors';
import { waitlistWithBookingSchema, waitlistWithNewBookingSchema, waitlistWithoutBookingSchema } from '../../src/lib/waitlist-schema';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { configuredEmail } from '../../src/server/email/senders.server';
import { afterResponse, json, parseInput, readJson, route } from '../../src/server/http.server';
import { joinedEmail } from '../../src/server/email/messages/waitlist.server';
import { joinWaitlist, type JoinRequest } from '../../src/server/waitlist/entries.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';
import { appointmentTypes } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { assertSameOrigin } from '../../src/server/auth/origin.server';

export default route({
  POST: async (req, ctx) => {
    // Only the site's own pages (or a mail client without Origin) may change an entry.
    assertSameOrigin(req);
    const raw = await readJson(req);
    // With a booking's link token, with a booking just made (its id, from the success screen), or with the patient's details.
    const has = (field: string) => typeof raw === 'object' && raw !== null && field in raw;
    const body = (
      has('token')
        ? parseInput(waitlistWithBookingSchema, raw)
        : has('booking_id')
          ? parseInput(waitlistWithNewBookingSchema, raw)
          : parseInput(waitlistWithoutBookingSchema, raw)
    ) as JoinRequest;
    if (body.from > body.to) throw new AppError('invalid-input', '"to" lies before "from".', { to: ['waitlist.errors.rangeReversed'] });
    const db = await getDb();
    // Entries are sealed: without a key, 503 not-configured and nothing is stored.
    const entry = await joinWaitlist(db, body, { keys: await dataKeyRing(), clientAddress: ctx.ip });
    // The confirmation with the link off the list, then whatever already fits: after the answer.
    afterResponse(ctx, 'waitlist confirmation', async () => {
      const email = configuredEmail('waitlist confirmation');
      if (!email) return;
      const [type] = await db.select().from(appointmentTypes).where(eq(appointmentTypes.id, entry.typeId));
      if (type) await email.sender.send(joinedEmail(entry.secret, { from: entry.from, to: entry.to, type }, email.env.SITE_URL));
    });
    offerAfterResponse(ctx, entry.typeId);
    return json({ id: entry.id }, { status: 201 });
  },
});

export const config = { path: '/api/waitlist' };
