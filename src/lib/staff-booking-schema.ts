/**
 * POST /api/admin/booked-slots' body, the one staff schema with a phone
 * number: apart from admin-schemas.ts (whose field rules it uses) so that
 * the other staff routes never load the phone number metadata
 * (docs/decisions/043-sms-second-channel.md).
 */
import { isLang, type Lang } from '../i18n/languages';
import { confirmHoliday, optionalBirthDate, optionalEmail, patientName, staffDate, staffTime, typeId } from './admin-schemas';
import { phoneField } from './phone';
import * as z from './zod';

/** The caller's phone: required, then the wizard's rule (a valid number, German by default), answered in E.164. */
const patientPhone = () =>
  z.pipe(
    z.string({ error: 'admin.errors.phoneRequired' }).check(z.trim(), z.minLength(1, 'admin.errors.phoneRequired')),
    phoneField({ min: 'admin.errors.phoneInvalid', invalid: 'admin.errors.phoneInvalid' }),
  );

/**
 * POST /api/admin/booked-slots: a seat taken by staff for a caller, with the
 * caller's details (docs/decisions/025): first and last name and phone
 * required; birth date and email optional; language German unless given.
 */
export const staffBookingSchema = /* @__PURE__ */ staffBooking();
function staffBooking() {
  return z.object({
    appointment_type_id: z.pipe(typeId, z.transform((id) => id.toLowerCase())),
    appointment_date: staffDate,
    appointment_time: staffTime,
    first_name: patientName('admin.errors.firstNameRequired'),
    last_name: patientName('admin.errors.lastNameRequired'),
    phone: patientPhone(),
    birth_date: optionalBirthDate,
    email: optionalEmail,
    language: z.pipe(
      z
        .pipe(
          z.nullish(z.string({ error: 'admin.errors.languageInvalid' })),
          z.transform((v) => (v == null || v === '' ? 'de' : v)),
        )
        .check(z.refine(isLang, 'admin.errors.languageInvalid')),
      z.transform((v) => v as Lang),
    ),
    /** The caller agreed to SMS at this number ("SMS an diese Nummer erlaubt"); a landline is 400 phone-not-mobile naming `phone`. */
    sms: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
    confirm_holiday: confirmHoliday,
  });
}
export type StaffBookingInput = z.output<typeof staffBookingSchema>;
