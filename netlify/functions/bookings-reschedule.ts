import { getDb } from '../../db/client';
import { useTranslations } from '../../src/i18n/i18n';
import { rescheduleRequestSchema } from '../../src/lib/booking-schema';
import { AppError } from '../../src/lib/errors';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { sendRescheduleEmail } from '../../src/server/email/senders.server';
import { rescheduleBooking, sendMoveNotice } from '../../src/server/bookings/move.server';
import { readEnv } from '../../src/server/env.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { forgetHit, moveLimits, takeRateLimit } from '../../src/server/rate-limit.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

const TOO_MANY_MOVES = {
  de: 'Dieser Termin wurde zu oft verschoben. Bitte versuchen Sie es später erneut oder rufen Sie uns an.',
  en: 'This appointment has been moved too often. Please try again later or call us.',
} as const;

export default route({
  POST: async (req, ctx) => {
    // Only the site's own pages may move (a foreign Origin is refused before the body is read).
    assertSameOrigin(req);
    const body = parseInput(rescheduleRequestSchema, await readJson(req));
    const language = body.language === 'en' ? 'en' : 'de';
    const db = await getDb();
    // Per booking and per client, before anything moves: a refused move sends the practice no notice.
    const limits = moveLimits({ token: body.token, clientAddress: ctx.ip }, readEnv());
    const now = new Date();
    await takeRateLimit(db, [limits.booking, limits.client], now, TOO_MANY_MOVES[language]);
    // One transaction: the new seat taken, the old one freed, the reminder moved (or nothing at all).
    const moved = await rescheduleBooking(db, body, await dataKeyRingIfAny(), now).catch(async (error: unknown) => {
      // Refused by the booking rules (a time taken meanwhile): it moved nothing, so it costs the booking nothing.
      if (error instanceof AppError && error.status === 409) await forgetHit(db, limits.booking, now);
      throw error;
    });
    // The move stands once committed: the patient's confirmation (new time, updated .ics) and the
    // practice's notice only report how they went.
    const [patientSent, email] = await Promise.all([
      // Without a contact (booked before contacts existed) there is nobody to tell: not a failure.
      moved.contact ? sendMoveNotice('moved', moved) : true,
      sendRescheduleEmail({
        reference: moved.booking.reference,
        type: moved.type,
        old: moved.old,
        moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
        language,
      }),
    ]);
    // The old time is free: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx, moved.booking.appointment_type_id);
    const patientEmailError = useTranslations(language)('email.errors.patientFailed');
    return json({ booking: { ...moved.booking, sequence: moved.sequence }, email: patientSent ? email : { ...email, success: false, patientEmailError } });
  },
});

export const config = { path: '/api/bookings/reschedule' };
