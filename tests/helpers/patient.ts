/**
 * The patient the tests book as: step 3's fields, all valid. Files
 * that look for the patient's values in tables, logs or mail override the
 * email with one of their own.
 */
export const testPatient = {
  first_name: 'Erika',
  last_name: 'Mustermann',
  birth_date: '1964-08-12',
  phone: '+49 211 5550123',
  email: 'erika@example.org',
  consent: true,
  language: 'de',
};

/** A POST /api/bookings body: that patient at a type's date and time, with any field overridden. */
export function bookingRequest(typeId: string, date: string, time: string, overrides: Record<string, unknown> = {}) {
  return { appointment_type_id: typeId, appointment_date: date, appointment_time: time, ...testPatient, ...overrides };
}

/**
 * The caller of a phone booking (POST /api/admin/booked-slots): the required
 * details only (no birth date, no email). Files that look for patient values
 * in tables, logs or mail use their own.
 */
export const testCaller = {
  first_name: 'Hans',
  last_name: 'Müller',
  phone: '0211 7654321',
};

/** The same numbers as stored and answered: E.164 (docs/decisions/043-sms-second-channel.md). */
export const testPatientE164 = '+492115550123';
export const testCallerE164 = '+492117654321';
