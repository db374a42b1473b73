/** /api/waitlist/offer: an offer's details (a read), and taking it. */
import { takeOfferSchema, waitlistTokenSchema } from '../../lib/waitlist-schema';
import * as z from '../../lib/zod';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { offerDetails } from '../waitlist/offers.server';
import { takeOfferAsPatient } from '../waitlist/patient.server';

const tokenInput = z.object({ token: waitlistTokenSchema });

/** Never writes (docs/decisions/038-waitlist-offers-for-freed-times.md): a taken offer answers the next free time, no new offer. */
export const showOffer = publicAction({
  query: tokenInput,
  run: async ({ db, query }) => json(await offerDetails(db, query.token, await dataKeyRingIfAny())),
});

/** Only the site's own pages (or a mail client without Origin) may change an entry. */
export const takeOffer = publicAction({
  body: takeOfferSchema,
  run: async ({ db, ctx, body }) => json(await takeOfferAsPatient(db, ctx, body)),
});
