/**
 * The contact message (SPEC.md §3, §5; DESIGN.md "Bad input"): one schema
 * shared by the contact form island and POST /api/contact. Every message is
 * a translation key, so the form shows it and the API returns it as is.
 */
import { z } from './zod';
import { languages } from '../i18n/i18n';

export const CONTACT_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  phoneMax: 40,
  subjectMax: 200,
  messageMax: 5000,
} as const;

/** At most this many accepted messages per client address within the window. */
export const CONTACT_RATE_LIMIT = { max: 5, windowMinutes: 60 } as const;

const singleLine = /^[^\r\n\u2028\u2029]*$/;
// One address, no display name, no line breaks (it becomes the Reply-To header).
const emailPattern = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;
const phoneCharacters = /^[0-9 +\-/()]+$/;

const required = (key: string) => z.string({ error: key }).trim().min(1, { error: key, abort: true });

export const contactMessageSchema = z.object({
  name: required('contact.errors.nameRequired')
    .max(CONTACT_LIMITS.nameMax, 'contact.errors.nameTooLong')
    .regex(singleLine, 'contact.errors.singleLine'),
  email: required('contact.errors.emailRequired')
    .max(CONTACT_LIMITS.emailMax, 'contact.errors.emailInvalid')
    .regex(emailPattern, 'contact.errors.emailInvalid'),
  /** Optional; when given, DESIGN.md's phone rule: 10+ characters, digits, spaces and + - / ( ), 7+ digits. */
  phone: z
    .string({ error: 'contact.errors.phoneInvalid' })
    .trim()
    .max(CONTACT_LIMITS.phoneMax, 'contact.errors.phoneInvalid')
    .refine(
      (v) => v === '' || (v.length >= 10 && phoneCharacters.test(v) && (v.match(/\d/g)?.length ?? 0) >= 7),
      'contact.errors.phoneInvalid',
    )
    .optional()
    .transform((v) => v || undefined),
  /** Optional; it becomes part of the email subject, so a single line. */
  subject: z
    .string({ error: 'contact.errors.subjectTooLong' })
    .trim()
    .max(CONTACT_LIMITS.subjectMax, 'contact.errors.subjectTooLong')
    .regex(singleLine, 'contact.errors.singleLine')
    .optional()
    .transform((v) => v || undefined),
  message: required('contact.errors.messageRequired').max(CONTACT_LIMITS.messageMax, 'contact.errors.messageTooLong'),
  language: z.enum(languages, { error: 'contact.errors.language' }),
  /**
   * Honeypot: hidden from people, filled in by bots. A message with any
   * value here is answered like a success and not sent.
   */
  website: z.string().max(1000).optional(),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;

/** The fields a person must fill (SPEC.md §5): checked first for the "required fields" toast. */
export const requiredContactFields = ['name', 'email', 'message'] as const;

/** API.md's response body of POST /api/contact. */
export type ContactResponse = { success: true } | { success: false; error: string };
