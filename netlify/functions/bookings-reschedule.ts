import { getDb } from '../../db/client';
import { rescheduleRequestSchema } from '../../src/lib/booking-schema';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { sendRescheduleEmail } from '../../src/server/booking-emails.server';
import { rescheduleBooking } from '../../src/server/bookings/move.server';
import { useTranslations } from '../../src/i18n/i18n';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { sendPatientNotice } from '../../src/server/patient-notices.server';

export default route({
  POST: async (req) => {
    const body = parseInput(rescheduleRequestSchema, await readJson(req));
    const language = body.language === 'en' ? 'en' : 'de';
    // One transaction: the new seat taken, the old one freed, the reminder moved (or nothing at all).
    const moved = await rescheduleBooking(await getDb(), body, await dataKeyRingIfAny());
    // The move stands once committed: the patient's confirmation (new time, updated .ics) and the
    // practice's notice only report how they went.
    const [patientSent, email] = await Promise.all([
      moved.contact
        ? sendPatientNotice({
            kind: 'moved',
            contact: moved.contact,
            bookingId: moved.booking.id,
            reference: moved.booking.reference,
            type: moved.type,
            date: moved.booking.appointment_date,
            time: moved.booking.appointment_time,
            old: moved.old,
            sequence: moved.sequence,
          })
        : true,
      sendRescheduleEmail({
        reference: moved.booking.reference,
        type: moved.type,
        old: moved.old,
        moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
        language,
      }),
    ]);
    const patientEmailError = useTranslations(language)('email.errors.patientFailed');
    return json({ booking: { ...moved.booking, sequence: moved.sequence }, email: patientSent ? email : { ...email, success: false, patientEmailError } });
  },
});

export const config = { path: '/api/bookings/reschedule' };
