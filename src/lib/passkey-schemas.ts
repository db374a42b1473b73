/**
 * The bodies of the passkey routes (docs/decisions/037-passkeys-sessions-guessing.md),
 * shared by "Mein Konto", /auth and the functions: the WebAuthn JSON the
 * browser library hands over (checked for shape and size here; the
 * signatures and challenges by the server's WebAuthn library), the name
 * its owner gives a passkey (an admin text: one line, at most 60
 * characters), and the proof a removal needs.
 */
import { adminText } from './admin-text';
import { factorProofSchema } from './auth-schemas';
import * as z from './zod';

export const MAX_PASSKEY_NAME_LENGTH = 60;

const base64url = (max: number) =>
  z.string({ error: 'errors.passkeyInvalid' }).check(z.maxLength(max, 'errors.passkeyInvalid'), z.regex(/^[A-Za-z0-9_-]*$/, 'errors.passkeyInvalid'));
const credentialId = base64url(1366).check(z.minLength(16, 'errors.passkeyInvalid'));

/** What the browser library's startRegistration() returns. */
const registrationResponse = z.looseObject({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: 'errors.passkeyInvalid' }),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
  authenticatorAttachment: z.optional(z.string().check(z.maxLength(32))),
});

/** POST /api/auth/passkey/register/verify: the new passkey's name and the browser's answer. */
export const passkeyRegistrationSchema = z.object({
  name: adminText('admin.errors.required', MAX_PASSKEY_NAME_LENGTH),
  response: registrationResponse,
});
export type PasskeyRegistrationInput = z.infer<typeof passkeyRegistrationSchema>;

/** POST /api/auth/passkey/login/verify: what the browser library's startAuthentication() returns. */
export const passkeyAuthenticationSchema = z.looseObject({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: 'errors.passkeyInvalid' }),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: z.optional(base64url(128)),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
  authenticatorAttachment: z.optional(z.string().check(z.maxLength(32))),
});
export type PasskeyAuthenticationInput = z.infer<typeof passkeyAuthenticationSchema>;

/** DELETE /api/auth/passkeys/:id: the current password or a fresh code. */
export const passkeyRemovalSchema = factorProofSchema;

/** A passkey as "Mein Konto" lists it; its public key is never shown. */
export interface PasskeyDto {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}
