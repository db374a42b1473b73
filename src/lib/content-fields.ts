/**
 * The German names of the content fields (src/lib/content-schemas.ts), used
 * by the content editor's forms (src/islands/content-editor/cms-config.ts)
 * and by its server to name a field in an error ("Kopfbereich › Überschrift
 * fehlt"). A field is named by its path: a label for the whole path wins
 * over one for its last key, so `title` on a page is the browser-tab title
 * while `title` in a card is just "Titel".
 */

/** Labels by a field's key, wherever it occurs. */
const KEY_LABELS: Record<string, string> = {
  title: 'Titel',
  description: 'Beschreibung',
  heading: 'Überschrift',
  text: 'Text',
  intro: 'Einleitung',
  note: 'Hinweis',
  items: 'Punkte',
  badge: 'Kennzeichnung',
  buttonLabel: 'Beschriftung des Buttons',
  name: 'Name',
  role: 'Funktion',
  label: 'Bezeichnung',
  number: 'Telefonnummer',
  cards: 'Karten',
  people: 'Personen',
  person: 'Person',
  body: 'Text der Seite',
};

/** Labels by the whole path (array positions left out), where the key alone says too little. */
const PATH_LABELS: Record<string, string> = {
  title: 'Seitentitel (Browser-Tab und Suchergebnis)',
  description: 'Beschreibung für Suchmaschinen',
  heading: 'Hauptüberschrift',
  hero: 'Kopfbereich',
  'hero.heading': 'Hauptüberschrift',
  'hero.bookLabel': 'Button „Termin buchen“',
  'hero.callLabel': 'Button „Anrufen“',
  hours: 'Sprechzeiten-Kasten',
  news: 'Aktuelles',
  services: 'Leistungen',
  'services.groups': 'Leistungsbereiche',
  appointment: 'Hinweis zur Terminbuchung',
  emergency: 'Notfälle',
  'emergency.numbers': 'Notrufnummern',
  prescriptions: 'Rezepte und Überweisungen',
  aboutHeading: 'Überschrift über dem Text der Seite',
  tests: 'Untersuchungen',
  'tests.text': 'Was der Wert aussagt',
  'tests.forWhom': 'Für wen sinnvoll',
  billing: 'Abrechnung',
  packages: 'Pakete',
  'packages.items': 'Pakete',
  'packages.items.includes': 'Enthaltene Untersuchungen',
  doctor: 'Ärztin / Arzt',
  'doctor.educationHeading': 'Überschrift Ausbildung',
  'doctor.education': 'Ausbildung',
  'doctor.careerHeading': 'Überschrift Werdegang',
  'doctor.career': 'Werdegang',
  'doctor.philosophyHeading': 'Überschrift Leitgedanke',
  'doctor.philosophy': 'Leitgedanke',
  assistantDoctor: 'Weiterbildungsassistenz',
  assistants: 'Medizinische Fachangestellte',
  values: 'Unsere Werte',
  detailsHeading: 'Überschrift Kontaktdaten',
  form: 'Kontaktformular',
  factsHeading: 'Überschrift der Praxisangaben',
  updated: 'Stand (Datum)',
  // practice.json
  street: 'Straße und Hausnummer',
  postalCode: 'Postleitzahl',
  city: 'Ort',
  country: 'Land (ISO-Code, z. B. DE)',
  phone: 'Telefon',
  fax: 'Fax',
  email: 'E-Mail',
  openingHours: 'Sprechzeiten',
  'openingHours.days': 'Wochentage',
  'openingHours.opens': 'von (HH:mm)',
  'openingHours.closes': 'bis (HH:mm)',
  name: 'Name der Praxis',
  'name.de': 'Name (Deutsch)',
  'name.en': 'Name (Englisch)',
};

/** Keys whose text runs over several lines in the form (a text area instead of one line). */
const LONG_TEXT_KEYS = new Set(['text', 'intro', 'note', 'philosophy', 'description']);

const keysOf = (path: ReadonlyArray<string | number>) => path.filter((p): p is string => typeof p === 'string');

/** The label of the field at `path` (its keys; array positions are ignored). */
export function fieldLabel(path: ReadonlyArray<string | number>): string {
  const keys = keysOf(path);
  const key = keys[keys.length - 1] ?? '';
  return PATH_LABELS[keys.join('.')] ?? KEY_LABELS[key] ?? key;
}

export function isLongText(path: ReadonlyArray<string | number>): boolean {
  const keys = keysOf(path);
  return LONG_TEXT_KEYS.has(keys[keys.length - 1] ?? '');
}

/**
 * A field's place, for a person: "Leistungen › Leistungsbereiche › 3. Eintrag › Titel".
 * Array positions count from 1.
 */
export function fieldTrail(path: ReadonlyArray<string | number | symbol>): string {
  const parts: string[] = [];
  const sofar: Array<string | number> = [];
  for (const part of path) {
    if (typeof part === 'symbol') continue;
    sofar.push(part);
    parts.push(typeof part === 'number' ? `${part + 1}. Eintrag` : fieldLabel(sofar));
  }
  return parts.join(' › ');
}
