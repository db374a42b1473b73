import { z } from 'zod';
import { getDb } from '../../db/client';
import { waitlistTokenSchema } from '../../src/lib/waitlist-schema';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { sendBookingEmails, sendRescheduleEmail } from '../../src/server/email/senders.server';
import { markPracticeNotNotified } from '../../src/server/bookings/create.server';
import { sendMoveNotice } from '../../src/server/bookings/move.server';
import { afterResponse, json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';
import { offerDetails, takeOffer } from '../../src/server/waitlist/offers.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';

const tokenInput = z.object({ token: waitlistTokenSchema });

export default route({
  GET: async (req) => {
    const { token } = parseInput(tokenInput, queryOf(req));
    return json(await offerDetails(await getDb(), token));
  },
  POST: async (req, ctx) => {
    // Only the site's own pages (or a mail client without Origin) may change an entry.
    assertSameOrigin(req);
    const { token } = parseInput(tokenInput, await readJson(req));
    const db = await getDb();
    const taken = await takeOffer(db, token, await dataKeyRingIfAny());
    if (taken.kind === 'moved') {
      const { moved } = taken;
      // The move email with the updated .ics (same UID, higher SEQUENCE) and the practice's notice.
      await Promise.all([
        sendMoveNotice('moved', moved),
        sendRescheduleEmail({
          reference: moved.booking.reference,
          type: moved.type,
          old: moved.old,
          moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
          language: moved.contact?.language ?? 'de',
        }),
      ]);
      // The old time is free now: the next patients on the list are asked.
      offerAfterResponse(ctx, moved.booking.appointment_type_id);
      return json({ booking: { ...moved.booking, sequence: moved.sequence } });
    }
    const { booking, secret } = taken;
    afterResponse(ctx, 'waitlist booking emails', async () => {
      const email = await sendBookingEmails({
        bookingId: booking.id,
        token: taken.token,
        reference: booking.reference,
        type: taken.type,
        date: booking.appointment_date,
        time: booking.appointment_time,
        patient: { first_name: secret.firstName, last_name: secret.lastName, birth_date: secret.birthDate ?? '', phone: secret.phone ?? '', email: secret.email },
        language: secret.language,
      });
      if (email.practiceEmailError || email.error) await markPracticeNotNotified(db, booking.id);
    });
    return json({ booking });
  },
});

export const config = { path: '/api/waitlist/offer' };
