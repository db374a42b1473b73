/**
 * How "Patient suchen" compares a query with one booking (docs/decisions/025):
 * pure, in memory, since the details are sealed and cannot be searched in SQL.
 *
 * - Names: every word of the query within the full name, case and accents
 *   ignored, German spellings folded both ways: ä/ae, ö/oe, ü/ue, ß/ss
 *   ("Mueller" finds "Müller", "Müller" finds "Mueller", "muller" finds
 *   both). A word counts as found when it is within the name in any of
 *   three readings (`readings`): accents dropped ("Müller" → "muller"),
 *   umlauts written out ("Müller" → "mueller"), or both spellings collapsed
 *   ("Mueller" → "muller"). Several readings, not one, so a fragment still
 *   finds what it is part of ("el" finds "Manuel", "er" finds "Bauer");
 *   the cost is a rare extra hit ("manul" finds "Manuel"), which a person
 *   sorts out at a glance.
 * - A birth date (dd.mm.yyyy or yyyy-mm-dd): exactly.
 * - A phone number in any common spelling ("0211 555-0123", "+49 211
 *   5550123", "(0211) 5550123"): its digits, the country code +49/0049 read
 *   as the trunk 0, found within the stored number's digits.
 * - A booking reference ("S74V96", also typed lower case or with spaces):
 *   exactly.
 */
import { REFERENCE_PATTERN } from '../../lib/booking-reference';

const ASCII = /^[\x00-\x7f]*$/;
const base = (value: string) => (ASCII.test(value) ? value : value.normalize('NFC')).toLowerCase().replace(/\s+/g, ' ').trim();
/** Each non-ASCII character's plain form, worked out once: NFKD without marks, with the letters NFKD keeps whole spelled out. */
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', ł: 'l' };
const plainChars = new Map<string, string>();
const plainChar = (ch: string) => {
  let plain = plainChars.get(ch);
  if (plain === undefined) {
    plain = SPELLED[ch] ?? ch.normalize('NFKD').replace(/\p{M}/gu, '');
    if (plainChars.size < 10_000) plainChars.set(ch, plain);
  }
  return plain;
};
const dropAccents = (value: string) => {
  if (ASCII.test(value)) return value;
  let out = '';
  for (const ch of value) out += ch.charCodeAt(0) < 0x80 ? ch : plainChar(ch);
  return out;
};
const writeOutUmlauts = (value: string) => value.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue');
const collapse = (plain: string) => plain.replace(/([aou])e/g, '$1');

/**
 * The readings a name or a query word is compared in: accents dropped
 * ("Müller" → "muller", "Straße" → "strasse"), umlauts written out first
 * ("Müller" → "mueller"), and the written-out umlauts collapsed
 * ("Mueller" and "Müller" → "muller").
 */
export function readings(value: string): [plain: string, writtenOut: string, collapsed: string] {
  const lower = base(value);
  const plain = dropAccents(lower);
  return [plain, /[äöü]/.test(lower) ? dropAccents(writeOutUmlauts(lower)) : plain, collapse(plain)];
}

/** A name or word in its plain reading: lower case, accents dropped, ß as ss ("Müller" → "muller"). */
export const foldName = (value: string) => readings(value)[0];

/** A birth date query (dd.mm.yyyy or yyyy-mm-dd) as yyyy-mm-dd, else null. */
export function birthDateQuery(q: string): string | null {
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(q.trim());
  if (german) return `${german[3]}-${german[2]!.padStart(2, '0')}-${german[1]!.padStart(2, '0')}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(q.trim()) ? q.trim() : null;
}

/**
 * A phone number's digits in the national form: "+49 (0)211 555-0123",
 * "0049 211 5550123" and "0211/5550123" all read "02115550123". Another
 * country's code stays as its international digits ("+43 1 …" → "00431…").
 */
export function phoneDigits(value: string): string {
  const digits = value
    .replace(/\(0\)/g, '')
    .trim()
    .replace(/^\+/, '00')
    .replace(/\D/g, '');
  return digits.startsWith('0049') ? `0${digits.slice(4)}` : digits;
}

/** At least 5 digits and nothing but what phone numbers are written with. */
const PHONE_QUERY = /^[\d\s+\-/().]+$/;

/** A query that reads as a phone number (or part of one): its digits; else null. */
export function phoneQuery(q: string): string | null {
  const trimmed = q.trim();
  if (!PHONE_QUERY.test(trimmed) || birthDateQuery(trimmed)) return null;
  const digits = phoneDigits(trimmed);
  return digits.length >= 5 ? digits : null;
}

/** A query that reads as a booking reference, upper case without spaces or dashes; else null. */
export function referenceQuery(q: string): string | null {
  const compact = q.replace(/[\s-]/g, '').toUpperCase();
  return REFERENCE_PATTERN.test(compact) ? compact : null;
}

export interface SearchedBooking {
  reference: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  phone: string;
}

/** A query as a test of one booking and its patient: reference, birth date, phone or name (see above). */
export function matcher(q: string): (booking: SearchedBooking) => boolean {
  const date = birthDateQuery(q);
  if (date) return (b) => b.birthDate === date;
  const reference = referenceQuery(q);
  const isReference = (b: SearchedBooking) => reference !== null && b.reference === reference;
  const phone = phoneQuery(q);
  if (phone) return (b) => isReference(b) || (b.phone !== '' && phoneDigits(b.phone).includes(phone));
  const words = base(q).split(' ').map(readings);
  return (b) => {
    if (isReference(b)) return true;
    const full = `${b.firstName} ${b.lastName}`;
    // Most names decide on the plain reading; the other two are made only when it does not.
    const plain = dropAccents(base(full));
    if (words.every((word) => plain.includes(word[0]))) return true;
    const name = readings(full);
    return words.every((word) => word.some((reading, i) => name[i]!.includes(reading)));
  };
}
