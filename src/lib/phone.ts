/**
 * Phone numbers (docs/decisions/043-sms-second-channel.md): read with
 * libphonenumber-js, German numbers by default ("0211 1234567", "0171 …"),
 * any other country with its +code, and kept in one form, E.164
 * ("+492111234567"), wherever they are stored or compared. Shown to staff
 * the way they dial: a German number in its national form
 * ("0211 1234567"), a foreign one international ("+31 20 123 4567").
 *
 * The `min` metadata (about a third of `max`) is enough to check and
 * format a number; whether one is a mobile number needs the full rules and
 * is asked on the server only (src/server/sms/numbers.server.ts). Only
 * code that sees a phone number imports this module: the schemas that do
 * are built in a `/* @__PURE__ *\/` call, so a bundle that does not use
 * them leaves the metadata out.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from './zod';

/** The region a number without +code is read in. */
export const DEFAULT_REGION = 'DE';

/** The number in E.164, or null when it is not a valid phone number. */
export function toE164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), DEFAULT_REGION);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * A stored number as staff read and dial it: German ones national, others
 * international; anything that does not parse (a number kept before
 * numbers were normalised) as it was typed.
 */
export function displayPhone(value: string): string {
  if (!value) return value;
  const parsed = parsePhoneNumberFromString(value, DEFAULT_REGION);
  if (!parsed?.isValid()) return value;
  return parsed.country === DEFAULT_REGION ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * A phone field: at least 10 characters as typed (the message the forms
 * always had), then a valid number for its country, answered in E.164.
 */
export function phoneField(keys: { min: string; invalid: string }) {
  return z.pipe(
    z.string({ error: keys.min }).check(z.trim(), z.minLength(10, keys.min), z.maxLength(30, keys.invalid)),
    z.transform((value, ctx) => {
      const e164 = toE164(value);
      if (!e164) {
        ctx.issues.push({ code: 'custom', message: keys.invalid, input: value });
        return z.NEVER;
      }
      return e164;
    }),
  );
}

/** The patient's phone in the wizard, the waitlist and requests (bookingForm.errors.*). */
export const phoneSchema = /* @__PURE__ */ phoneField({ min: 'bookingForm.errors.phoneMin', invalid: 'bookingForm.errors.phoneInvalid' });
