import { describe, expect, it } from 'vitest';
import { bookingRequestSchema, patientFormSchema } from './booking-schema';
import { contactMessageSchema } from './contact-message';
import { toAsciiEmail, visibleLength } from './text-input';
import { fieldErrors } from '../server/http.server';

const patient = { first_name: 'Anna', last_name: 'Muster', birth_date: '01.01.1980', phone: '+49 211 1234567', email: 'anna@example.org', consent: true as const };
const contact = { name: 'Anna Muster', email: 'anna@example.org', message: 'Hallo', language: 'de' as const };

function errorsOf(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error as never);
}

describe('names (booking and contact)', () => {
  it.each([
    ['DEL', 'An\u007fna'],
    ['C1 CSI U+009B', 'An\u009bna'],
    ['NUL', 'An\u0000na'],
    ['line separator U+2028', 'An\u2028na'],
    ['paragraph separator U+2029', 'An\u2029na'],
    ['RTL override U+202E', 'An\u202ena'],
    ['LRE U+202A', '\u202aAnna'],
    ['isolate U+2067', 'An\u2067na'],
    ['pop isolate U+2069', 'Anna\u2069'],
  ])('a booking name with %s is refused with 400 naming the field', (_what, value) => {
    expect(errorsOf(patientFormSchema, { ...patient, first_name: value })).toEqual({ first_name: ['bookingForm.errors.nameInvalid'] });
    expect(errorsOf(contactMessageSchema, { ...contact, name: value })).toHaveProperty('name');
  });

  it('a name of zero-width characters only passes no minimum', () => {
    for (const value of ['\u200b\u200b', '\u200b\u200c\u200d\u2060\ufeff', '\u3164\u3164', 'A\u200b']) {
      expect(errorsOf(patientFormSchema, { ...patient, last_name: value })).toEqual({ last_name: ['bookingForm.errors.lastNameMin'] });
    }
    expect(errorsOf(contactMessageSchema, { ...contact, name: '\u200b\u200b\u200b' })).toEqual({ name: ['contact.errors.nameRequired'] });
  });

  it('counts visible characters: a decomposed letter is one, an emoji family one, spaces none', () => {
    expect(visibleLength('Zoe\u0308')).toBe(3);
    expect(visibleLength('👨‍👩‍👧')).toBe(1);
    expect(visibleLength(' \u200b \u00ad')).toBe(0);
    expect(errorsOf(patientFormSchema, { ...patient, first_name: 'Jo' })).toEqual({});
  });

  it('normalises to NFC', () => {
    const parsed = patientFormSchema.parse({ ...patient, first_name: 'Zoe\u0308', last_name: 'Mu\u0308ller' });
    expect(parsed.first_name).toBe('Zo\u00eb');
    expect(parsed.last_name).toBe('M\u00fcller');
    expect(contactMessageSchema.parse({ ...contact, name: 'Jose\u0301', message: 'Cafe\u0301\nbis bald' }).message).toBe('Caf\u00e9\nbis bald');
  });

  it('keeps names with letters of any script, apostrophes and hyphens', () => {
    for (const value of ["O'Brien", 'Müller-Lüdenscheidt', 'Łukasz', 'محمد', '李小龙', 'Ğül']) {
      expect(errorsOf(patientFormSchema, { ...patient, first_name: value })).toEqual({});
    }
  });
});

describe('RFC 2047 encoded words (issue 20)', () => {
  it.each([
    ['an encoded word', '=?utf-8?B?QmNjOiB4QGV4YW1wbGUub3Jn?='],
    ['"=?" inside a name', 'Anna=?Muster'],
  ])('every name field and the contact subject refuse %s', (_what, value) => {
    expect(errorsOf(patientFormSchema, { ...patient, first_name: value })).toEqual({ first_name: ['bookingForm.errors.nameInvalid'] });
    expect(errorsOf(patientFormSchema, { ...patient, last_name: value })).toEqual({ last_name: ['bookingForm.errors.nameInvalid'] });
    expect(errorsOf(bookingRequestSchema, { first_name: value })).toHaveProperty('first_name', ['bookingForm.errors.nameInvalid']);
    expect(errorsOf(contactMessageSchema, { ...contact, name: value })).toEqual({ name: ['contact.errors.invalidCharacters'] });
    expect(errorsOf(contactMessageSchema, { ...contact, subject: value })).toEqual({ subject: ['contact.errors.invalidCharacters'] });
  });

  it('a message may still quote "=?" (it never reaches a header), and "=" or "?" alone are fine in a name', () => {
    expect(errorsOf(contactMessageSchema, { ...contact, message: 'Was heißt =? in einer Mail?' })).toEqual({});
    expect(errorsOf(contactMessageSchema, { ...contact, subject: 'Rezept? Termin = morgen' })).toEqual({});
  });
});

describe('contact subject and message', () => {
  it.each([
    ['NUL', '\u0000'],
    ['VT', '\u000b'],
    ['FF', '\u000c'],
    ['DEL', '\u007f'],
    ['C1', '\u0085'],
    ['RLO', '\u202e'],
  ])('a subject with %s is refused', (_what, ch) => {
    expect(errorsOf(contactMessageSchema, { ...contact, subject: `Rezept${ch}frage` })).toEqual({ subject: ['contact.errors.invalidCharacters'] });
  });

  it('a subject with a line break keeps its own message', () => {
    expect(errorsOf(contactMessageSchema, { ...contact, subject: 'a\nb' })).toEqual({ subject: ['contact.errors.singleLine'] });
    expect(errorsOf(contactMessageSchema, { ...contact, subject: 'a\u2028b' })).toEqual({ subject: ['contact.errors.singleLine'] });
  });

  it('a message may hold LF and CRLF line breaks but no other control, bidi or separator character', () => {
    expect(errorsOf(contactMessageSchema, { ...contact, message: 'Zeile 1\nZeile 2\r\nZeile 3' })).toEqual({});
    for (const bad of ['a\u0000b', 'a\tb', 'a\rb', 'a\u000bb', 'a\u000cb', 'a\u007fb', 'a\u009bb', 'a\u202eb', 'a\u2066b', 'a\u2028b', 'a\u2029b']) {
      expect(errorsOf(contactMessageSchema, { ...contact, message: bad }), JSON.stringify(bad)).toEqual({ message: ['contact.errors.invalidCharacters'] });
    }
    expect(errorsOf(contactMessageSchema, { ...contact, message: '\u200b\u200b' })).toEqual({ message: ['contact.errors.messageRequired'] });
  });
});

describe('email addresses', () => {
  it('accepts one ASCII address and converts an internationalised domain to punycode', () => {
    expect(toAsciiEmail('anna@example.org')).toBe('anna@example.org');
    expect(toAsciiEmail('anna@bücher.de')).toBe('anna@xn--bcher-kva.de');
    expect(toAsciiEmail('Anna@EXAMPLE.org')).toBe('Anna@example.org');
    expect(contactMessageSchema.parse({ ...contact, email: ' anna@bücher.de ' }).email).toBe('anna@xn--bcher-kva.de');
    expect(bookingRequestSchema.shape.email.parse('anna@straße.de')).toBe('anna@xn--strae-oqa.de');
  });

  it.each([
    ['NUL', 'evil\u0000@example.com'],
    ['the encoded-word trick', '=?utf-8?B?PGV2aWxAeD4=?=@example.com'],
    ['raw non-ASCII local part', 'jörg@example.com'],
    ['a display name', 'Anna <anna@example.org>'],
    ['two addresses', 'a@example.org,b@example.org'],
    ['two @', 'a@b@example.org'],
    ['a space', 'an na@example.org'],
    ['a line break', 'anna@example.org\r\nBcc: x@y.z'],
    ['a path in the domain', 'anna@example.org/x'],
    ['a port', 'anna@example.org:25'],
    ['an IP literal', 'anna@[127.0.0.1]'],
    ['no dot in the domain', 'anna@localhost'],
    ['RLO', 'anna@exa\u202emple.org'],
    ['C1', 'anna\u0085@example.org'],
  ])('refuses %s', (_what, value) => {
    expect(toAsciiEmail(value)).toBeNull();
    expect(errorsOf(contactMessageSchema, { ...contact, email: value })).toEqual({ email: ['contact.errors.emailInvalid'] });
    expect(errorsOf(patientFormSchema, { ...patient, email: value })).toEqual({ email: ['bookingForm.errors.emailInvalid'] });
  });
});
