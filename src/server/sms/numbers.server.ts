/**
 * Which numbers take SMS (docs/decisions/043-sms-second-channel.md): only
 * mobile numbers, decided with libphonenumber-js's mobile rules (a number
 * of a country that does not tell mobile from fixed lines, as in North
 * America, counts as mobile). Loaded on demand: the rules are about a
 * hundred kilobytes, and only a request that asks for SMS needs them.
 */
import { AppError } from '../../lib/errors';

/** Whether an E.164 number is a mobile one. */
export async function isMobileNumber(e164: string): Promise<boolean> {
  const { parsePhoneNumberFromString } = await import('./mobile-rules.server');
  const parsed = parsePhoneNumberFromString(e164);
  return Boolean(parsed?.isValid() && (parsed.getType() === 'MOBILE' || parsed.getType() === 'FIXED_LINE_OR_MOBILE'));
}

/**
 * `sms: true` needs a mobile number: 400 `phone-not-mobile` naming `phone`
 * (the patient's key, or the back office's with `admin`).
 */
export async function assertSmsNumber(e164: string, keys: 'patient' | 'admin' | 'requests' = 'patient'): Promise<void> {
  if (await isMobileNumber(e164)) return;
  const message = { patient: 'bookingForm.errors.phoneNotMobile', admin: 'admin.errors.phoneNotMobile', requests: 'requests.errors.phoneNotMobile' }[keys];
  throw new AppError('phone-not-mobile', 'SMS can only go to a mobile number.', { phone: [message] });
}

/** The consent as kept: true only when asked for and the number is a mobile one (checked by assertSmsNumber first). */
export async function smsConsent(wanted: boolean | undefined, e164: string, keys: 'patient' | 'admin' = 'patient'): Promise<boolean> {
  if (!wanted) return false;
  await assertSmsNumber(e164, keys);
  return true;
}
