/**
 * The contact message (docs/architecture.md, Security: bad input): one schema
 * shared by the contact form island and POST /api/contact. Every message is
 * a translation key, so the form shows it and the API returns it as is.
 */
import * as z from './zod';
import { languages } from '../i18n/languages';
import { hasLineBreak, isCleanLine, isCleanText, toAsciiEmail, trimSpaces, visibleLength } from './text-input';
import { toE164 } from './phone';

export const CONTACT_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  phoneMax: 40,
  subjectMax: 200,
  messageMax: 5000,
} as const;

/**
 * The id of the contact form's outcome without JavaScript: the built page's
 * marker that the answer replaces (contact-result.server.ts), and the form's
 * fragment, so the answer opens at it.
 */
export const CONTACT_RESULT_ID = 'contact-result';

/** At most this many accepted messages per client address within the window. */
export const CONTACT_RATE_LIMIT = { max: 5, windowMinutes: 60 } as const;

const required = (key: string) => z.string({ error: key }).check(z.overwrite(trimSpaces), z.normalize('NFC'), z.minLength(1, { error: key, abort: true }));

/** Single-line text (name, subject): line breaks get their own message, other control/bidi characters another. */
const singleLineText = <T extends z.ZodMiniString>(schema: T) =>
  schema.check(
    z.refine((v) => !hasLineBreak(v), 'contact.errors.singleLine'),
    z.refine((v) => hasLineBreak(v) || isCleanLine(v), 'contact.errors.invalidCharacters'),
  );

export const contactMessageSchema = z.object({
  name: singleLineText(required('contact.errors.nameRequired').check(z.maxLength(CONTACT_LIMITS.nameMax, 'contact.errors.nameTooLong'))).check(
    z.refine((v) => visibleLength(v) >= 1, 'contact.errors.nameRequired'),
  ),
  /** One ASCII address (it becomes the Reply-To header); an internationalised domain as punycode. */
  email: z.pipe(
    z.pipe(
      required('contact.errors.emailRequired').check(z.maxLength(CONTACT_LIMITS.emailMax, 'contact.errors.emailInvalid')),
      z.transform((v) => toAsciiEmail(v) ?? ''),
    ),
    z.email({ error: 'contact.errors.emailInvalid' }),
  ),
  /**
   * Optional; when given, at least 10 characters and a valid number for its
   * country (libphonenumber-js, German by default: src/lib/phone.ts), kept in E.164.
   */
  phone: z.pipe(
    z.optional(
      z
        .string({ error: 'contact.errors.phoneInvalid' })
        .check(
          z.trim(),
          z.maxLength(CONTACT_LIMITS.phoneMax, 'contact.errors.phoneInvalid'),
          z.refine((v) => v === '' || (v.length >= 10 && toE164(v) !== null), 'contact.errors.phoneInvalid'),
        ),
    ),
    z.transform((v) => (v ? (toE164(v) ?? undefined) : undefined)),
  ),
  /** Optional; it becomes part of the email subject, so a single line. */
  subject: z.pipe(
    z.optional(
      singleLineText(
        z
          .string({ error: 'contact.errors.subjectTooLong' })
          .check(z.overwrite(trimSpaces), z.normalize('NFC'), z.maxLength(CONTACT_LIMITS.subjectMax, 'contact.errors.subjectTooLong')),
      ),
    ),
    z.transform((v) => (v && visibleLength(v) > 0 ? v : undefined)),
  ),
  /** Line breaks (LF, CRLF) allowed; other control, bidi and separator characters not. */
  message: required('contact.errors.messageRequired').check(
    z.maxLength(CONTACT_LIMITS.messageMax, 'contact.errors.messageTooLong'),
    z.refine(isCleanText, 'contact.errors.invalidCharacters'),
    z.refine((v) => visibleLength(v) >= 1, 'contact.errors.messageRequired'),
  ),
  language: z.enum(languages, { error: 'contact.errors.language' }),
  /**
   * Honeypot: hidden from people, filled in by bots. A message with any
   * value here is answered like a success and not sent.
   */
  website: z.optional(z.string().check(z.maxLength(1000))),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

/** The fields a person must fill: checked first for the "required fields" toast. */
export const requiredContactFields = ['name', 'email', 'message'] as const;

/** The response body of POST /api/contact. */
export type ContactResponse = { success: true } | { success: false; error: string };
