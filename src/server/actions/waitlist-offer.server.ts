/** /api/waitlist/offer: an offer's details, and taking it. */
import { z } from 'zod';
import { waitlistTokenSchema } from '../../lib/waitlist-schema';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { offerDetails } from '../waitlist/offers.server';
import { takeOfferAsPatient } from '../waitlist/patient.server';

const tokenInput = z.object({ token: waitlistTokenSchema });

export const showOffer = publicAction({
  query: tokenInput,
  run: async ({ db, query }) => json(await offerDetails(db, query.token)),
});

/** Only the site's own pages (or a mail client without Origin) may change an entry. */
export const takeOffer = publicAction({
  body: tokenInput,
  run: async ({ db, ctx, body }) => json(await takeOfferAsPatient(db, ctx, body.token)),
});
