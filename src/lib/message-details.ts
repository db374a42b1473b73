/**
 * Does a staff message to a patient name what the patient asked about?
 * Email is not confidential (docs/decisions/041-staff-messages-devices-printouts.md):
 * a message about a request should not name its medications, reason,
 * specialty or topic, and a message about a booking should not repeat the
 * appointment type's name. The server asks staff to confirm such a message
 * (409 `message-names-details`); this module only finds the words.
 *
 * Matching, pure and the same everywhere:
 * - case-, accent- and umlaut-insensitive: ä/ae, ö/oe, ü/ue, ß/ss compare
 *   equal both ways, other accents are dropped (é → e);
 * - whole words, compared by their German stem (Snowball, so "Impfungen"
 *   finds "Impfung", "Rückenschmerz" finds "Rückenschmerzen"), and a stem
 *   of at least 6 letters also finds the same stem with up to 3 more
 *   letters ("Kardiologe" finds "Kardiologin", "Orthopäde" "Orthopädie");
 * - a medication by its name, never its strength or pack: words with a
 *   digit and dose units are ignored;
 * - short words (under 3 letters; under 4 in the patient's free text),
 *   German and English stop words and the practice's everyday words
 *   ("Termin", "Rezept", "Überweisung", "Woche" …) are ignored.
 *
 * The message and what it matched are never logged or audited: callers
 * only pass on the kinds found.
 */
import { stemmer } from '@orama/stemmers/german';
import stopwordsDe from 'stopwords-de/stopwords-de.json' with { type: 'json' };
import stopwordsEn from 'stopwords-en/stopwords-en.json' with { type: 'json' };

/** What a message may name: a request's medication, reason, specialty or topic; a booking's type. */
export const DETAIL_KINDS = ['medication', 'reason', 'specialty', 'topic', 'type'] as const;
export type DetailKind = (typeof DETAIL_KINDS)[number];

/** One detail to look for: its kind and the text as the patient (or the practice, for a type) wrote it. */
export interface DetailTerm {
  kind: DetailKind;
  text: string;
}

/** A detail the message names: its kind and the term's word found (for the person who typed the message only). */
export interface NamedDetail {
  kind: DetailKind;
  word: string;
}

/** Patient-written free text: its words need 4 letters to count, names (medication, specialty, type) 3 ("HNO", "EKG"). */
const FREE_TEXT: ReadonlySet<DetailKind> = new Set(['reason', 'topic']);

/**
 * Words of the practice's everyday mail and of requests themselves: naming
 * them says nothing about a patient's health. Compared by stem, so each
 * form covers its inflections.
 */
const EVERYDAY_WORDS = [
  // the practice and its work
  'Praxis', 'Termin', 'Sprechstunde', 'Arzt', 'Ärztin', 'Doktor', 'Patient', 'Patientin', 'Team', 'Empfang', 'Anmeldung',
  'Rezept', 'Folgerezept', 'E-Rezept', 'Überweisung', 'Rückruf', 'Anruf', 'Anfrage', 'Nachricht', 'Untersuchung', 'Behandlung',
  'Gesundheitskarte', 'Versichertenkarte', 'Karte', 'Quartal', 'Kasse', 'Krankenkasse', 'privat', 'gesetzlich', 'abholen', 'Abholung',
  'Medikament', 'Medikamente', 'Tablette', 'Tabletten', 'Kapsel', 'Kapseln', 'Tropfen', 'Salbe', 'Creme', 'Spray', 'Packung', 'Dosis',
  'Facharzt', 'Fachärztin', 'Grund', 'Thema', 'Frage', 'Fragen', 'Problem', 'Probleme', 'Beschwerden',
  // time and courtesy
  'Tag', 'Tage', 'Woche', 'Monat', 'Jahr', 'heute', 'morgen', 'gestern', 'Vormittag', 'Nachmittag', 'Uhr', 'Zeit', 'bald', 'nächste', 'letzte',
  'bitte', 'danke', 'Dank', 'Grüße', 'freundlich', 'herzlich', 'liebe', 'sehr', 'geehrte', 'Herr', 'Frau', 'leider', 'gerne',
  'rufen', 'melden', 'kommen', 'vorbeikommen', 'bereit', 'liegt', 'erledigt', 'möglich', 'nötig', 'neu', 'neue', 'wieder',
  // English
  'practice', 'appointment', 'doctor', 'prescription', 'referral', 'request', 'call', 'message', 'medication', 'tablets',
  'please', 'thanks', 'regards', 'kind', 'dear', 'today', 'tomorrow', 'week', 'ready', 'collect', 'pick',
];

/** Dose units and pack words after a medication's name. */
const UNITS = ['mg', 'ml', 'µg', 'ug', 'mcg', 'ie', 'iu', 'g', 'l', 'stk', 'stück', 'tbl', 'tabl', 'amp', 'hub', 'retard', 'forte', 'mite', 'comp'];

/** Lower case, umlauts spelt out (ä → ae, ß → ss), other accents dropped: "Müller" and "Mueller" are one word. */
export function foldWord(word: string): string {
  return word
    .normalize('NFC')
    .toLocaleLowerCase('de-DE')
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** A text's words: runs of letters and digits (a hyphen or an apostrophe splits). */
function wordsOf(text: string): string[] {
  return text.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [];
}

const stem = (folded: string) => stemmer(folded);

/** The words to ignore, folded and stemmed on first use, not at load: a function that never checks a message pays nothing. */
let ignored: { words: Set<string>; stems: Set<string> } | null = null;
function ignoredWords(): { words: Set<string>; stems: Set<string> } {
  ignored ??= {
    words: new Set<string>([...stopwordsDe, ...stopwordsEn, ...UNITS].map(foldWord)),
    stems: new Set<string>([...stopwordsDe, ...stopwordsEn, ...EVERYDAY_WORDS.flatMap(wordsOf)].map((w) => stem(foldWord(w)))),
  };
  return ignored;
}

/** Whether a term's word is worth looking for: long enough, letters only, not a stop, everyday or unit word. */
function significant(folded: string, minLength: number): boolean {
  if (folded.length < minLength) return false;
  if (/\p{N}/u.test(folded)) return false;
  const { words, stems } = ignoredWords();
  if (words.has(folded)) return false;
  return !stems.has(stem(folded));
}

/** Stems equal, or a stem of 6+ letters is the start of the other with at most 3 letters more. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 6 && long.length - short.length <= 3 && long.startsWith(short);
}

/**
 * The details a message names, each kind and word once, in the order of
 * `terms`. Empty when the message names none (or is empty).
 */
export function namedDetails(message: string, terms: readonly DetailTerm[]): NamedDetail[] {
  const messageStems = [...new Set(wordsOf(message).map((w) => stem(foldWord(w))))];
  if (messageStems.length === 0) return [];
  const found: NamedDetail[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    const minLength = FREE_TEXT.has(term.kind) ? 4 : 3;
    for (const word of wordsOf(term.text)) {
      const folded = foldWord(word);
      if (!significant(folded, minLength)) continue;
      const termStem = stem(folded);
      const key = `${term.kind}:${termStem}`;
      if (seen.has(key)) continue;
      if (messageStems.some((s) => sameWord(s, termStem))) {
        seen.add(key);
        found.push({ kind: term.kind, word });
      }
    }
  }
  return found;
}

/** The kinds a message names, each once, in DETAIL_KINDS order: what the server's 409 carries. */
export function namedKinds(message: string, terms: readonly DetailTerm[]): DetailKind[] {
  const kinds = new Set(namedDetails(message, terms).map((d) => d.kind));
  return DETAIL_KINDS.filter((k) => kinds.has(k));
}
