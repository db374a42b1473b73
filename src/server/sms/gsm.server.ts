/**
 * SMS text as networks carry it (docs/decisions/043-sms-second-channel.md):
 * GSM-7 only (a single character outside it turns the whole message into
 * UCS-2, 70 characters a part), at most two parts, 306 characters.
 * The character tables (GSM-7 with its extension, and the look-alike
 * replacements „“ – … →  " - ...) come from Twilio's
 * `sms-segments-calculator`; what is left outside GSM-7 is dropped, so a
 * staff message typed with an emoji still goes.
 */
import SmartEncodingMap from 'sms-segments-calculator/dist/libs/SmartEncodingMap.js';
import UnicodeToGsm from 'sms-segments-calculator/dist/libs/UnicodeToGSM.js';

/** Two parts of 153 GSM-7 characters each (a multi-part SMS keeps 7 of 160 for the joining header). */
export const SMS_MAX_CHARACTERS = 306;
export const SMS_MAX_PARTS = 2;

// CommonJS modules: their map is `default` under some loaders and the module itself under others.
const defaultOf = <T>(loaded: T & { default?: T }): T => loaded.default ?? loaded;
const lookAlikes = defaultOf(SmartEncodingMap as unknown as Record<string, string> & { default?: Record<string, string> });
/** Each GSM-7 character's code units (two for the extension table: € [ ] { } …), by code point. */
const gsmUnits = defaultOf(UnicodeToGsm as unknown as Record<number, number[]> & { default?: Record<number, number[]> });

/** Code units a character takes in GSM-7, or 0 when GSM-7 cannot carry it. */
const unitsOf = (c: string) => gsmUnits[c.codePointAt(0)!]?.length ?? 0;

/**
 * The text with look-alikes replaced, every other character outside GSM-7
 * removed, spaces collapsed. (The library's own table, read per character:
 * its message class splits graphemes and takes milliseconds per text, which
 * an answer must not wait for.)
 */
export function toGsm7(text: string): string {
  const replaced = [...text.normalize('NFC')].map((c) => lookAlikes[c] ?? c).join('');
  const kept = [...replaced].filter((c) => unitsOf(c) > 0 || /\s/.test(c)).join('');
  return kept.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** GSM-7 characters the text takes (an extension character like € or [ counts two); Infinity when it is not GSM-7. */
export function gsmLength(text: string): number {
  let length = 0;
  for (const c of text) {
    const units = unitsOf(c);
    if (units === 0) return Infinity;
    length += units;
  }
  return length;
}

/** Whether the text is GSM-7 only. */
export function isGsm7(text: string): boolean {
  return gsmLength(text) !== Infinity;
}

/**
 * How many parts the provider bills for a GSM-7 text (1 or 2 for every
 * text this site sends): up to 160 characters one part; longer, parts of
 * 153, an extension character's two code units never split across two
 * parts (3GPP TS 23.038; what the library's message class counts, checked
 * against it by the tests).
 */
export function partsOf(text: string): number {
  if (gsmLength(text) <= 160) return 1;
  let parts = 1;
  let used = 0;
  for (const c of text) {
    const units = unitsOf(c);
    if (used + units > 153) {
      parts++;
      used = 0;
    }
    used += units;
  }
  return parts;
}

/** The longest start of `text` (cut at a word where one fits, with "…" as "...") that takes at most `max` GSM-7 characters. */
export function cutToFit(text: string, max: number): string {
  if (gsmLength(text) <= max) return text;
  if (max < 4) return '';
  let cut = text;
  while (cut && gsmLength(`${cut}...`) > max) {
    const space = cut.lastIndexOf(' ');
    cut = space > cut.length - 15 && space > 0 ? cut.slice(0, space) : cut.slice(0, -1);
  }
  return cut ? `${cut.trimEnd()}...` : '';
}
