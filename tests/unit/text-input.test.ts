import { describe, expect, it } from 'vitest';
import { bookingRequestSchema, patientFormSchema } from '../../src/lib/booking-request-schema';
import { contactMessageSchema } from '../../src/lib/contact-message';
import { hasHiddenCharacter, isAcceptableString, isCleanLine, isCleanText, toAsciiEmail, unacceptableStrings, visibleLength } from '../../src/lib/text-input';
import { fieldErrors } from '../../src/server/http.server';

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
    // The joiners are allowed (scripts and emoji need them) but are not visible; other zero-width characters are refused outright.
    for (const value of ['\u200c\u200c', '\u200c\u200d\u200c', '\u3164\u3164', 'A\u200d']) {
      expect(errorsOf(patientFormSchema, { ...patient, last_name: value })).toEqual({ last_name: ['bookingForm.errors.lastNameMin'] });
    }
    expect(errorsOf(contactMessageSchema, { ...contact, name: '\u200c\u200d\u200c' })).toEqual({ name: ['contact.errors.nameRequired'] });
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

describe('RFC 2047 encoded words', () => {
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
    expect(errorsOf(contactMessageSchema, { ...contact, message: '\u200c\u200d' })).toEqual({ message: ['contact.errors.messageRequired'] });
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

/** Every plane's last two code points, U+FFFE/U+FFFF up to U+10FFFE/U+10FFFF. */
const PLANE_ENDS: Array<[string, string]> = Array.from({ length: 17 }, (_, plane) => [0xfffe, 0xffff].map((low) => plane * 0x10000 + low)).flatMap(
  (points) => points.map((cp): [string, string] => [`noncharacter U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, String.fromCodePoint(cp)]),
);

/** Characters refused in every name, subject and message (docs/decisions/028-hidden-characters-addresses-invitations-origin.md). */
const HIDDEN: Array<[string, string]> = [
  ['LRM U+200E', '\u200e'],
  ['RLM U+200F', '\u200f'],
  ['ALM U+061C', '\u061c'],
  ['LRE U+202A', '\u202a'],
  ['RLE U+202B', '\u202b'],
  ['PDF U+202C', '\u202c'],
  ['LRO U+202D', '\u202d'],
  ['RLO U+202E', '\u202e'],
  ['LRI U+2066', '\u2066'],
  ['RLI U+2067', '\u2067'],
  ['FSI U+2068', '\u2068'],
  ['PDI U+2069', '\u2069'],
  ['BOM / zero-width no-break space U+FEFF', '\ufeff'],
  ['interlinear annotation anchor U+FFF9', '\ufff9'],
  ['interlinear annotation separator U+FFFA', '\ufffa'],
  ['interlinear annotation terminator U+FFFB', '\ufffb'],
  ['zero-width space U+200B', '\u200b'],
  ['word joiner U+2060', '\u2060'],
  ['invisible times U+2062', '\u2062'],
  ['invisible plus U+2064', '\u2064'],
  ['inhibit symmetric swapping U+206A', '\u206a'],
  ['nominal digit shapes U+206F', '\u206f'],
  ['soft hyphen U+00AD', '\u00ad'],
  ['Mongolian vowel separator U+180E', '\u180e'],
  ['Arabic number sign U+0600', '\u0600'],
  ['Kaithi number sign U+110BD', '\u{110bd}'],
  ['musical symbol begin beam U+1D173', '\u{1d173}'],
  ['language tag U+E0001', '\u{e0001}'],
  ['tag latin small letter a U+E0061 (ASCII smuggling)', '\u{e0061}'],
  ['noncharacter U+FDD0', '\ufdd0'],
  ['noncharacter U+FDEF', '\ufdef'],
  ...PLANE_ENDS,
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udfff'],
];

describe('format characters, noncharacters and lone surrogates', () => {
  it('covers U+xFFFE and U+xFFFF in all 17 planes', () => {
    expect(PLANE_ENDS).toHaveLength(34);
    expect(PLANE_ENDS.at(-1)![1]).toBe('\u{10ffff}');
  });

  describe.each(HIDDEN)('%s', (_what, ch) => {
    it.each([
      ['inside', `An${ch}na`],
      ['first', `${ch}Anna`],
      ['last', `Anna${ch}`],
    ])('is refused %s a booking name, naming the field', (_where, value) => {
      expect(hasHiddenCharacter(value)).toBe(true);
      expect(isCleanLine(value)).toBe(false);
      expect(isCleanText(value)).toBe(false);
      expect(errorsOf(patientFormSchema, { ...patient, first_name: value })).toEqual({ first_name: ['bookingForm.errors.nameInvalid'] });
      expect(errorsOf(patientFormSchema, { ...patient, last_name: value })).toEqual({ last_name: ['bookingForm.errors.nameInvalid'] });
      expect(errorsOf(bookingRequestSchema, { first_name: value })).toHaveProperty('first_name', ['bookingForm.errors.nameInvalid']);
    });

    it('breaks the floor under every string of every JSON body, wherever it stands', () => {
      expect(isAcceptableString(`An${ch}na`)).toBe(false);
      expect(unacceptableStrings({ a: 'ok', b: [`x${ch}`], c: { d: { e: `${ch}` } } })).toEqual({ 'b.0': ['errors.invalidCharacters'], 'c.d.e': ['errors.invalidCharacters'] });
    });

    it('is refused in the contact name, subject and message, naming the field', () => {
      expect(errorsOf(contactMessageSchema, { ...contact, name: `Anna${ch} Muster` })).toEqual({ name: ['contact.errors.invalidCharacters'] });
      expect(errorsOf(contactMessageSchema, { ...contact, subject: `${ch}Rezept` })).toEqual({ subject: ['contact.errors.invalidCharacters'] });
      expect(errorsOf(contactMessageSchema, { ...contact, message: `Hallo${ch}\nbis bald` })).toEqual({ message: ['contact.errors.invalidCharacters'] });
      // Alone it is not "empty": it is refused, not dropped.
      expect(errorsOf(contactMessageSchema, { ...contact, subject: ch })).toEqual({ subject: ['contact.errors.invalidCharacters'] });
    });

    it('makes no email address', () => {
      expect(toAsciiEmail(`anna${ch}@example.org`)).toBeNull();
      expect(toAsciiEmail(`anna@exa${ch}mple.org`)).toBeNull();
    });
  });

  it('keeps what names and messages need: joiners, combining marks, emoji sequences, the flags of England, Scotland and Wales', () => {
    // ZWNJ in a Persian name, ZWJ in Devanagari and in an emoji family, a variation selector, a combining diaeresis.
    for (const name of ['\u0645\u0647\u0631\u200c\u0622\u0633\u0627', '\u0915\u094d\u200d\u0937\u092e\u093e', 'Zoe\u0308', 'J\u00fcrgen-M\u00fcller', "D'Arcy"]) {
      expect(errorsOf(patientFormSchema, { ...patient, first_name: name }), JSON.stringify(name)).toEqual({});
      expect(errorsOf(contactMessageSchema, { ...contact, name }), JSON.stringify(name)).toEqual({});
    }
    const scotland = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}';
    for (const message of ['Danke \u{1f468}\u200d\u{1f469}\u200d\u{1f467}', `Gr\u00fc\u00dfe aus ${scotland}`, 'Herz \u2764\ufe0f', 'Zeile 1\r\nZeile 2']) {
      expect(errorsOf(contactMessageSchema, { ...contact, message }), JSON.stringify(message)).toEqual({});
    }
    // Tag characters outside a flag sequence are still refused.
    expect(hasHiddenCharacter(`${scotland}\u{e0061}`)).toBe(true);
    expect(hasHiddenCharacter('\u{e0067}\u{e0062}\u{e007f}')).toBe(true);
  });

  it('trims spaces but refuses a U+FEFF at either end rather than trimming it away', () => {
    expect(patientFormSchema.parse({ ...patient, first_name: '  Anna\u00a0 ' }).first_name).toBe('Anna');
    expect(errorsOf(patientFormSchema, { ...patient, first_name: ' \ufeffAnna ' })).toEqual({ first_name: ['bookingForm.errors.nameInvalid'] });
  });
});

describe('the floor under every JSON string (docs/decisions/037-passkeys-sessions-guessing.md)', () => {
  it.each([
    ['NUL', '\u0000'],
    ['BEL', '\u0007'],
    ['a lone CR', 'a\rb'],
    ['ESC', '\u001b[31m'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
  ])('refuses %s', (_what, value) => {
    expect(isAcceptableString(value)).toBe(false);
  });

  it('leaves TAB, LF, CRLF, the line separators and what names need to the fields’ own rules', () => {
    for (const value of ['a\tb', 'a\nb', 'a\r\nb', 'a\u2028b', 'Zo\u00eb', 'ن\u200cا', '\u{1f469}\u200d\u{1f4bb}', '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '']) {
      expect(isAcceptableString(value), JSON.stringify(value)).toBe(true);
    }
  });

  it('names the field: the body itself, nested paths, a bad key at its object', () => {
    expect(unacceptableStrings('a\u0000')).toEqual({ body: ['errors.invalidCharacters'] });
    expect(unacceptableStrings({ email: 'a\u0000@b.de', password: 'fine' })).toEqual({ email: ['errors.invalidCharacters'] });
    expect(unacceptableStrings({ list: [{ name: 'x' }, { name: 'y\u202e' }] })).toEqual({ 'list.1.name': ['errors.invalidCharacters'] });
    expect(unacceptableStrings({ nested: { 'bad\u0000key': 1 } })).toEqual({ nested: ['errors.invalidCharacters'] });
    expect(unacceptableStrings({ 'a\ud800': 1 })).toEqual({ body: ['errors.invalidCharacters'] });
    expect(unacceptableStrings({ n: 1, b: true, z: null, s: 'ok' })).toEqual({});
  });

  it('refuses nesting deeper than any form instead of walking it', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(Object.values(unacceptableStrings(deep))).toEqual([['errors.invalid']]);
  });
});

describe('the quick answers for Latin-1 and the scripts below U+0600 agree with the Unicode rules', () => {
  const FORMAT = /(?![\u200c\u200d])\p{Cf}|\p{Noncharacter_Code_Point}|\p{Cs}/u;
  const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}]*$/u;
  const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
  const byClusters = (v: string) => Array.from(segmenter.segment(v), (s) => s.segment).filter((c) => !INVISIBLE.test(c)).length;

  it('hasHiddenCharacter: every code point up to U+0700, alone and inside a name', () => {
    for (let cp = 0; cp <= 0x700; cp++) {
      const ch = String.fromCodePoint(cp);
      expect(hasHiddenCharacter(ch), `U+${cp.toString(16)}`).toBe(FORMAT.test(ch));
      expect(hasHiddenCharacter(`Jö${ch}rg`), `U+${cp.toString(16)}`).toBe(FORMAT.test(ch));
    }
  });

  it('visibleLength: every code point up to U+0300, alone, doubled and with a combining mark', () => {
    for (let cp = 0; cp <= 0x300; cp++) {
      const ch = String.fromCodePoint(cp);
      for (const value of [ch, `${ch}${ch}`, `A ${ch}b`, `${ch}\u0301`, `Ma${ch}\u00adria`]) {
        expect(visibleLength(value), JSON.stringify(value)).toBe(byClusters(value));
      }
    }
    expect(visibleLength('Müller-Lüdenscheidt')).toBe(19);
    expect(visibleLength(' \u00a0\u00ad ')).toBe(0);
  });
});
