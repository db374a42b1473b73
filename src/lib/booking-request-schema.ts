/**
 * The booking request's schemas with the patient's phone: the wizard's
 * details form and POST /api/bookings (the shared fields and their rules:
 * booking-schema.ts). Apart from booking-schema.ts so that code reading
 * only dates, times or tokens never loads the phone number metadata
 * (docs/decisions/043-sms-second-channel.md).
 */
import type { Lang } from '../i18n/languages';
import { birthDate, bookingFields, emailSchema, typedDateToIso } from './booking-schema';
import { phoneSchema } from './phone';
import * as z from './zod';

/** The patient's details, as the form holds them (birth date as typed, in the page's language's shapes). */
export function patientFormSchemaFor(lang: Lang) {
  return z.object({
    first_name: bookingFields.first_name,
    last_name: bookingFields.last_name,
    birth_date: birthDate((v) => typedDateToIso(v, lang)),
    phone: phoneSchema,
    email: emailSchema,
    consent: bookingFields.consent,
  });
}
export const patientFormSchema = /* @__PURE__ */ patientFormSchemaFor('de');
export type PatientForm = z.input<typeof patientFormSchema>;

function bookingRequest() {
  return z.object({
    ...bookingFields,
    phone: phoneSchema,
    /** Opt-in appointment reminder by email, or by SMS with `sms` (docs/decisions/009-reminders-sealed-at-rest.md); absent means no. */
    reminder: z.optional(z.boolean({ error: 'errors.reminderInvalid' })),
  });
}

/** POST /api/bookings. */
export const bookingRequestSchema = /* @__PURE__ */ bookingRequest();
export type BookingRequest = z.output<typeof bookingRequestSchema> & { language: 'de' | 'en' };
