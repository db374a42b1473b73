/**
 * Staff accounts (docs/decisions/010-staff-accounts-audit-day-list.md): own password change,
 * "Passwort vergessen", setting a password from a reset or invitation link,
 * and adding a colleague. Shared by the forms and the functions; messages
 * are translation keys as in auth-schemas.ts.
 */
import * as z from './zod';
import { MIN_NEW_PASSWORD_LENGTH, loginSchema } from './auth-schemas';
import { optionalAdminText } from './admin-text';

const MAX_PASSWORD_LENGTH = 200;
const email = loginSchema.shape.email;

export const newPassword = z
  .string({ error: 'errors.passwordRequired' })
  .check(z.minLength(MIN_NEW_PASSWORD_LENGTH, 'errors.passwordTooShort'), z.maxLength(MAX_PASSWORD_LENGTH, 'errors.passwordTooLong'));

export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: 'errors.passwordRequired' })
    .check(z.minLength(1, 'errors.passwordRequired'), z.maxLength(MAX_PASSWORD_LENGTH, 'errors.passwordTooLong')),
  newPassword,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** A link token: 32 random bytes, base64url (43 characters). */
export const passwordTokenSchema = z.string({ error: 'errors.tokenInvalid' }).check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'errors.tokenInvalid'));

export const resetPasswordSchema = z.object({ token: passwordTokenSchema, password: newPassword });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/**
 * POST /api/admin/users: `{ email, password }` (an initial password) or
 * `{ email, invite: true }` (an emailed link), never both.
 */
export const newUserSchema = z
  .object({
    email,
    password: z.optional(newPassword),
    invite: z.optional(z.boolean({ error: 'admin.errors.invalid' })),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.invite && value.password !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'admin.errors.passwordOrInvite' });
      }
      if (!value.invite && value.password === undefined) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'errors.passwordRequired' });
      }
    }),
  );
export type NewUserInput = z.infer<typeof newUserSchema>;

/** The longest name a session may be given ("Empfang PC 2"). */
export const SESSION_NAME_MAX = 60;

/**
 * PUT /api/auth/sessions/:id: the name its owner gives a session under
 * "Angemeldete Geräte" (docs/decisions/041-staff-messages-devices-printouts.md):
 * the admin text rules, one line, at most 60 characters; empty removes it.
 */
export const sessionNameSchema = z.strictObject({ name: optionalAdminText(SESSION_NAME_MAX) });
export type SessionNameInput = z.output<typeof sessionNameSchema>;
