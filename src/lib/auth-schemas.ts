/**
 * The sign-in and first-admin forms, shared by the pages and the functions
 * (email and password required). A new password has at least
 * 12 characters (docs/decisions/018-password-rules.md; the functions
 * also refuse common ones: src/server/auth/password-policy.server.ts);
 * signing in checks no length, so existing passwords keep working.
 * Messages are translation keys.
 */
import { toAsciiEmail } from './text-input';
import * as z from './zod';
import { requestSettingsSchema } from './request-settings-schema';
import { isRealDate } from './booking-schema';

export const MIN_NEW_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 200;

/**
 * A staff email (sign-in, first admin, colleagues, invitations, "Passwort
 * vergessen"): the address rules of a patient's email (one ASCII address,
 * an internationalised domain as punycode, no control, format or bidi
 * character: toAsciiEmail), lower-cased as the users table keeps it.
 */
const email = z.pipe(
  z.pipe(
    z
      .string({ error: 'errors.emailRequired' })
      .check(z.trim(), z.toLowerCase(), z.minLength(1, 'errors.emailRequired'), z.maxLength(254, 'errors.emailInvalid')),
    z.transform((v) => toAsciiEmail(v) ?? ''),
  ),
  z.email({ error: 'errors.emailInvalid' }),
);

export const loginSchema = z.object({
  email,
  password: z
    .string({ error: 'errors.passwordRequired' })
    .check(z.minLength(1, 'errors.passwordRequired'), z.maxLength(MAX_PASSWORD_LENGTH, 'errors.passwordTooLong')),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const adminSetupSchema = z.object({
  email,
  password: z
    .string({ error: 'errors.passwordRequired' })
    .check(z.minLength(MIN_NEW_PASSWORD_LENGTH, 'errors.passwordTooShort'), z.maxLength(MAX_PASSWORD_LENGTH, 'errors.passwordTooLong')),
  adminSecret: z
    .string({ error: 'errors.adminSecretRequired' })
    .check(z.minLength(1, 'errors.adminSecretRequired'), z.maxLength(500, 'errors.adminSecretRequired')),
});
export type AdminSetupInput = z.infer<typeof adminSetupSchema>;

/**
 * The code of the second factor (docs/decisions/027-staff-second-factor.md):
 * 6 digits from the authenticator app or a recovery code (XXXX-XXXX-XXXX-XXXX,
 * dashes and spaces optional). The server decides which it is.
 */
const code = z
  .string({ error: 'errors.codeRequired' })
  .check(z.trim(), z.minLength(1, 'errors.codeRequired'), z.maxLength(40, 'errors.codeInvalid'), z.regex(/^[0-9A-Za-z\s-]+$/, 'errors.codeInvalid'));

export const secondFactorCodeSchema = z.object({ code });
export type SecondFactorCodeInput = z.infer<typeof secondFactorCodeSchema>;

/**
 * Confirming who one is before changing one's own sign-in
 * (docs/decisions/037-passkeys-sessions-guessing.md): the current password
 * and, where the rule asks for it, a code. Both optional here: a missing
 * one is the server's 401 (`wrong-password`, `invalid-code`), not a form
 * error.
 */
export const factorProofSchema = z.object({
  password: z.optional(z.string({ error: 'errors.passwordRequired' }).check(z.maxLength(MAX_PASSWORD_LENGTH, 'errors.passwordTooLong'))),
  code: z.pipe(z.transform((v) => (v === '' ? undefined : v)), z.optional(code)),
});
export type FactorProofInput = z.infer<typeof factorProofSchema>;

/**
 * The holiday settings (docs/decisions/039-public-holidays.md), each part
 * optional (what is absent stays): the public holidays opened all the same
 * (the whole list, yyyy-MM-dd; the server checks each is an NRW holiday) and
 * the switches closing 24 and 31 December.
 */
export const holidaySettingsSchema = z
  .strictObject({
    opened: z.optional(
      z
        .array(z.string({ error: 'admin.errors.dateInvalid' }).check(z.refine(isRealDate, 'admin.errors.dateInvalid')), { error: 'admin.errors.invalid' })
        .check(z.maxLength(100, 'admin.errors.invalid')),
    ),
    close_dec_24: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
    close_dec_31: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
  })
  .check(
    z.refine((h) => h.opened !== undefined || h.close_dec_24 !== undefined || h.close_dec_31 !== undefined, {
      message: 'admin.errors.invalid',
      path: ['opened'],
    }),
  );
export type HolidaySettingsInput = z.infer<typeof holidaySettingsSchema>;

/**
 * PUT /api/admin/settings: the practice-wide settings of the back office,
 * each part optional (what is absent stays): the second factor required
 * for all, the patient requests' switches and notices
 * (docs/decisions/036-patient-requests.md), and the holidays.
 */
export const practiceSettingsSchema = z
  .strictObject({
    require_second_factor: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
    requests: z.optional(requestSettingsSchema),
    holidays: z.optional(holidaySettingsSchema),
  })
  .check(
    z.refine((s) => s.require_second_factor !== undefined || s.requests !== undefined || s.holidays !== undefined, {
      message: 'admin.errors.invalid',
      path: ['require_second_factor'],
    }),
  );
