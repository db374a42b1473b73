/**
 * What people may type into names, subjects and messages (issue 12), for
 * the forms and the API alike: text is NFC-normalised; control characters
 * (C0 – in a message except line breaks –, DEL, C1), bidi embeddings,
 * overrides and isolates, and the Unicode line/paragraph separators are
 * refused; minimum lengths count visible characters (grapheme clusters that
 * are not only spaces, format or other zero-width characters).
 *
 * Email addresses: one ASCII address; an internationalised domain becomes
 * punycode (the URL parser's IDNA, in browsers and Node alike).
 */

/** C0 controls, DEL and C1 controls. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
/** C0 controls except LF (and CR as part of CRLF), DEL and C1 controls. */
const CONTROLS_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
/** LRE RLE PDF LRO RLO and LRI RLI FSI PDI: they reorder the text around them. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const LINE_SEPARATORS = /[\u2028\u2029]/;
const LINE_BREAKS = /[\r\n\u2028\u2029]/;

/**
 * `=?` opens an RFC 2047 encoded word: a mail client decodes
 * `=?utf-8?B?…?=` in a header into whatever text it encodes, so no name or
 * subject that reaches a header may hold one (DESIGN.md "Account security
 * (third round)").
 */
export function hasEncodedWord(value: string): boolean {
  return value.includes('=?');
}

/** True when a single-line value (name, subject) holds nothing but printable text and no encoded word. */
export function isCleanLine(value: string): boolean {
  return !CONTROLS.test(value) && !BIDI_CONTROLS.test(value) && !LINE_SEPARATORS.test(value) && !hasEncodedWord(value);
}

/** True when a multi-line value (message) holds nothing but printable text and line breaks (LF or CRLF). */
export function isCleanText(value: string): boolean {
  return !CONTROLS_EXCEPT_NEWLINE.test(value) && !BIDI_CONTROLS.test(value) && !LINE_SEPARATORS.test(value);
}

export function hasLineBreak(value: string): boolean {
  return LINE_BREAKS.test(value);
}

const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}]*$/u;

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('und', { granularity: 'grapheme' }) : null;

/** The number of characters a reader sees: grapheme clusters that are not only spaces or zero-width/format characters. */
export function visibleLength(value: string): number {
  const clusters = segmenter ? Array.from(segmenter.segment(value), (s) => s.segment) : Array.from(value);
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
  if (CONTROLS.test(text) || BIDI_CONTROLS.test(text) || LINE_SEPARATORS.test(text)) return null;
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
