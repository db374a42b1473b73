/**
 * What people may type into names, subjects and messages, for
 * the forms and the API alike: text is NFC-normalised; control characters
 * (C0 – in a message except line breaks –, DEL, C1), format characters
 * (Unicode category Cf: the bidi marks, embeddings, overrides and isolates,
 * the byte-order mark, zero-width spaces, interlinear annotations, tags …,
 * except the joiners scripts and emoji need), noncharacters, unpaired
 * surrogates and the Unicode line/paragraph separators are refused; minimum
 * lengths count visible characters (grapheme clusters that are not only
 * spaces or zero-width characters). docs/decisions/028-hidden-characters-addresses-invitations-origin.md
 *
 * Email addresses: one ASCII address; an internationalised domain becomes
 * punycode (the URL parser's IDNA, in browsers and Node alike).
 */

/** C0 controls, DEL and C1 controls. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
/** C0 controls except LF (and CR as part of CRLF), DEL and C1 controls. */
const CONTROLS_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
/**
 * Format characters (category Cf) other than ZWNJ and ZWJ: the
 * Bidi_Control marks (LRM U+200E, RLM U+200F, ALM U+061C, the embeddings
 * and overrides U+202A–U+202E, the isolates U+2066–U+2069) reorder the text
 * around them; the others (U+FEFF, U+FFF9–U+FFFB, U+200B, U+2060–U+2064,
 * U+00AD, tags U+E0001–U+E007F, …) hide or change what a reader sees. ZWNJ
 * (U+200C) and ZWJ (U+200D) stay: Persian and Indic names and emoji
 * sequences need them.
 */
const FORMAT_CHARACTERS = /(?![\u200c\u200d])\p{Cf}/u;
/** An emoji tag sequence (the flags of England, Scotland, Wales): black flag, tag characters, cancel tag. */
const EMOJI_TAG_SEQUENCES = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE … U+10FFFF). */
const NONCHARACTERS = /\p{Noncharacter_Code_Point}/u;
/** Half of a surrogate pair on its own (JSON can carry one as "\ud800"): no character at all. */
const LONE_SURROGATES = /\p{Cs}/u;
const LINE_SEPARATORS = /[\u2028\u2029]/;
const LINE_BREAKS = /[\r\n\u2028\u2029]/;

/** Spaces and line breaks at either end, as String.prototype.trim, except U+FEFF (a format character, refused rather than trimmed away). */
const OUTER_SPACES = /^[^\S\ufeff]+|[^\S\ufeff]+$/g;

/** The value without spaces at either end; a U+FEFF there stays, for the rules to refuse. */
export function trimSpaces(value: string): string {
  return value.replace(OUTER_SPACES, '');
}

/**
 * Below U+0600 the only format character is the soft hyphen (U+00AD), and
 * noncharacters and surrogates lie far above: a value of these characters
 * alone (every German name and address) is answered without the Unicode
 * property classes, whose first use costs a cold function milliseconds.
 */
const NOTHING_HIDDEN = /^[\u0000-\u00ac\u00ae-\u05ff]*$/;

/** True when the value holds a format character (bidi marks included), a noncharacter or a lone surrogate. */
export function hasHiddenCharacter(value: string): boolean {
  if (NOTHING_HIDDEN.test(value)) return false;
  return FORMAT_CHARACTERS.test(value.replace(EMOJI_TAG_SEQUENCES, '')) || NONCHARACTERS.test(value) || LONE_SURROGATES.test(value);
}

/**
 * `=?` opens an RFC 2047 encoded word: a mail client decodes
 * `=?utf-8?B?…?=` in a header into whatever text it encodes, so no name or
 * subject that reaches a header may hold one (docs/decisions/015-admin-text-rules.md).
 */
export function hasEncodedWord(value: string): boolean {
  return value.includes('=?');
}

/** True when a single-line value (name, subject) holds nothing but printable text and no encoded word. */
export function isCleanLine(value: string): boolean {
  return !CONTROLS.test(value) && !hasHiddenCharacter(value) && !LINE_SEPARATORS.test(value) && !hasEncodedWord(value);
}

/** True when a multi-line value (message) holds nothing but printable text and line breaks (LF or CRLF). */
export function isCleanText(value: string): boolean {
  return !CONTROLS_EXCEPT_NEWLINE.test(value) && !hasHiddenCharacter(value) && !LINE_SEPARATORS.test(value);
}

export function hasLineBreak(value: string): boolean {
  return LINE_BREAKS.test(value);
}

/** C0 controls except TAB, LF and CR before LF, DEL and C1 controls: what no string of any request may hold. */
const CONTROLS_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

/**
 * The floor under every string of every JSON body, whatever field it is
 * (docs/decisions/037-passkeys-sessions-guessing.md): no NUL or other
 * control character except TAB, LF and CRLF, no format character (bidi
 * marks included; ZWNJ, ZWJ and emoji tag sequences stay), no noncharacter,
 * no lone surrogate. Which fields may hold line breaks or tabs is each
 * field's own rule (isCleanLine, isCleanText).
 */
export function isAcceptableString(value: string): boolean {
  return !CONTROLS_EXCEPT_WHITESPACE.test(value) && !hasHiddenCharacter(value);
}

/** How deep a body may nest before it is refused as a whole (no form nests more than a few levels). */
const MAX_DEPTH = 64;

/**
 * The fields of a parsed JSON value that break the floor, as a problem's
 * `errors` (field path → translation keys): `field`, `items.2.name`, `body`
 * for the value itself. A string `isAcceptableString` refuses is
 * `errors.invalidCharacters` (an object key is reported at its object's
 * path); nesting deeper than any form does is `errors.invalid`.
 */
export function unacceptableStrings(value: unknown): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const add = (path: string[], key: string) => {
    const field = path.length > 0 ? path.join('.') : 'body';
    (found[field] ??= []).includes(key) || found[field]!.push(key);
  };
  const walk = (v: unknown, path: string[]): void => {
    if (typeof v === 'string') {
      if (!isAcceptableString(v)) add(path, 'errors.invalidCharacters');
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (path.length >= MAX_DEPTH) {
      add(path, 'errors.invalid');
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, String(i)]));
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      if (!isAcceptableString(key)) add(path, 'errors.invalidCharacters');
      else walk(item, [...path, key]);
    }
  };
  walk(value, []);
  return found;
}

const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}]*$/u;

/** Made on first use: a process's first Intl object loads ICU's data (see berlin-time.ts). */
let graphemes: Intl.Segmenter | null | undefined;
const segmenter = () => (graphemes ??= typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('und', { granularity: 'grapheme' }) : null);

/**
 * Printable Latin-1: every character is a grapheme cluster of its own, and
 * only the space, the no-break space and the soft hyphen are invisible. Such
 * values (most names) are counted without Intl.Segmenter, whose first use
 * loads ICU's segmentation data.
 */
const PRINTABLE_LATIN1 = /^[\u0020-\u007e\u00a0-\u00ff]*$/;
const INVISIBLE_LATIN1 = /[\u0020\u00a0\u00ad]/g;

/** The number of characters a reader sees: grapheme clusters that are not only spaces or zero-width/format characters. */
export function visibleLength(value: string): number {
  if (PRINTABLE_LATIN1.test(value)) return value.replace(INVISIBLE_LATIN1, '').length;
  const split = segmenter();
  const clusters = split ? Array.from(split.segment(value), (s) => s.segment) : Array.from(value);
  return clusters.filter((cluster) => !INVISIBLE.test(cluster)).length;
}

/** Characters a domain name may not hold before IDNA (they would make the URL parser read something else). */
const DOMAIN_DELIMITERS = /[\s/?#:@[\]\\%<>"',;()]/;
const ASCII_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** RFC 5322 dot-atom local part, ASCII only. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/**
 * One ASCII email address: `local@domain` with an ASCII dot-atom local part
 * and the domain converted to punycode, or null when the value is not one
 * address (control characters, spaces, display names, several @, …).
 */
export function toAsciiEmail(value: string): string | null {
  const text = value.normalize('NFC');
  if (CONTROLS.test(text) || hasHiddenCharacter(text) || LINE_SEPARATORS.test(text)) return null;
  const at = text.lastIndexOf('@');
  if (at < 1 || text.indexOf('@') !== at) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  // `=?…?=` would read as an RFC 2047 encoded word to some mail clients.
  if (local.length > 64 || !LOCAL_PART.test(local) || local.includes('=?')) return null;
  if (domain === '' || DOMAIN_DELIMITERS.test(domain)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  if (!ASCII_DOMAIN.test(ascii)) return null;
  const address = `${local}@${ascii}`;
  return address.length <= 254 ? address : null;
}
