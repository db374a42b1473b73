/**
 * The contact message (docs/architecture.md, Security: bad input): one schema
 * shared by the contact form island and POST /api/contact. Every message is
 * a translation key, so the form shows it and the API returns it as is.
 */
import { z } from './zod';
import { languages } from '../i18n/i18n';
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

const required = (key: string) => z.string({ error: key }).overwrite(trimSpaces).normalize('NFC').min(1, { error: key, abort: true });

/** Single-line text (name, subject): line breaks get their own message, other control/bidi characters another. */
const singleLineText = <T extends z.ZodString>(schema: T) =>
  schema
    .refine((v) => !hasLineBreak(v), 'contact.errors.singleLine')
    .refine((v) => hasLineBreak(v) || isCleanLine(v), 'contact.errors.invalidCharacters');

export const contactMessageSchema = z.object({
  name: singleLineText(required('contact.errors.nameRequired').max(CONTACT_LIMITS.nameMax, 'contact.errors.nameTooLong')).refine(
    (v) => visibleLength(v) >= 1,
    'contact.errors.nameRequired',
  ),
  /** One ASCII address (it becomes the Reply-To header); an internationalised domain as punycode. */
  email: required('contact.errors.emailRequired')
    .max(CONTACT_LIMITS.emailMax, 'contact.errors.emailInvalid')
    .transform((v) => toAsciiEmail(v) ?? '')
    .pipe(z.email({ error: 'contact.errors.emailInvalid' })),
  /**
   * Optional; when given, at least 10 characters and a valid number for its
   * country (libphonenumber-js, German by default: src/lib/phone.ts), kept in E.164.
   */
  phone: z
    .string({ error: 'contact.errors.phoneInvalid' })
    .trim()
    .max(CONTACT_LIMITS.phoneMax, 'contact.errors.phoneInvalid')
    .refine((v) => v === '' || (v.length >= 10 && toE164(v) !== null), 'contact.errors.phoneInvalid')
    .optional()
    .transform((v) => (v ? (toE164(v) ?? undefined) : undefined)),
  /** Optional; it becomes part of the email subject, so a single line. */
  subject: singleLineText(
    z.string({ error: 'contact.errors.subjectTooLong' }).overwrite(trimSpaces).normalize('NFC').max(CONTACT_LIMITS.subjectMax, 'contact.errors.subjectTooLong'),
  )
    .optional()
    .transform((v) => (v && visibleLength(v) > 0 ? v : undefined)),
  /** Line breaks (LF, CRLF) allowed; other control, bidi and separator characters not. */
  message: required('contact.errors.messageRequired')
    .max(CONTACT_LIMITS.messageMax, 'contact.errors.messageTooLong')
    .refine(isCleanText, 'contact.errors.invalidCharacters')
    .refine((v) => visibleLength(v) >= 1, 'contact.errors.messageRequired'),
  language: z.enum(languages, { error: 'contact.errors.language' }),
  /**
   * Honeypot: hidden from people, filled in by bots. A message with any
   * value here is answered like a success and not sent.
   */
  website: z.string().max(1000).optional(),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

/** The fields a person must fill: checked first for the "required fields" toast. */
export const requiredContactFields = ['name', 'email', 'message'] as const;

/** The response body of POST /api/contact. */
export type ContactResponse = { success: true } | { success: false; error: string };
