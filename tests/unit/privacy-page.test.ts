/**
 * The privacy page (datenschutz, German and English) stays complete as
 * features are added: every kind of patient data the site stores has its
 * section in both languages, and every table that holds sealed values
 * belongs to one of these kinds (or is named here as not patient data). A
 * new sealed table, or a new kind of data, fails this test until the page
 * says what is kept, why and until when.
 */
import { readFileSync } from 'node:fs';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';

interface StoredKind {
  /** What is stored, for the failure message. */
  what: string;
  /** The section's heading on the German and the English page (level 3). */
  de: string;
  en: string;
  /** The tables whose sealed values hold it (none: kept in no sealed table of its own). */
  tables: string[];
}

/** Every kind of patient data the site stores. Add a kind, and its sections, with each feature that keeps something new. */
const STORED_KINDS: StoredKind[] = [
  {
    what: "a booking's patient details (name, birth date, phone, email, language), also after a practice cancellation until the day's end",
    de: 'Ihre Angaben zu Ihrem Termin',
    en: 'Your details for your appointment',
    tables: ['appointment_contacts', 'cancelled_bookings'],
  },
  { what: 'the opt-in reminder', de: 'Terminerinnerung per E-Mail (freiwillig)', en: 'Email reminder (optional)', tables: [] },
  {
    what: "a waitlist entry (name, birth date, phone, email, language, the wished period)",
    de: 'Warteliste für einen früheren Termin',
    en: 'Waitlist for an earlier appointment',
    tables: ['waitlist_entries'],
  },
  {
    what: 'a patient request (prescription, referral, call-back) and the practice message about it',
    de: 'Online-Anfragen: Rezept, Überweisung, Rückruf',
    en: 'Online requests: prescription, referral, call-back',
    tables: ['patient_requests'],
  },
  { what: 'emails waiting to be sent, and their delivery status', de: 'E-Mails, die wir Ihnen schicken', en: 'Emails we send you', tables: ['email_outbox'] },
  { what: 'contact form messages (sent, never stored)', de: 'Kontaktformular', en: 'Contact form', tables: [] },
  { what: 'language choice in the browser', de: 'In Ihrem Browser gespeicherte Angaben', en: 'Data stored in your browser', tables: [] },
];

/** Sealed tables that hold no patient data: staff accounts are not the public privacy page's subject. */
const NOT_PATIENT_DATA: Record<string, string> = {
  staff_second_factors: "a staff member's TOTP secret",
};

function sealedTables(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => value instanceof PgTable)
    .map((table) => getTableConfig(table))
    .filter((config) => config.columns.some((column) => column.name === 'sealed' || column.name.endsWith('_sealed')))
    .map((config) => config.name)
    .sort();
}

function headings(lang: 'de' | 'en'): string[] {
  return readFileSync(`src/content/${lang}/datenschutz.md`, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('### '))
    .map((line) => line.slice(4).trim());
}

describe('the privacy page names every kind of patient data the site stores', () => {
  it('every table with sealed values belongs to a kind on the page (or is named as holding no patient data)', () => {
    const covered = new Set([...STORED_KINDS.flatMap((kind) => kind.tables), ...Object.keys(NOT_PATIENT_DATA)]);
    expect(sealedTables().length).toBeGreaterThanOrEqual(5);
    expect(sealedTables().filter((table) => !covered.has(table))).toEqual([]);
  });

  it.each(['de', 'en'] as const)('the %s page has a section for each kind', (lang) => {
    const present = new Set(headings(lang));
    expect(STORED_KINDS.filter((kind) => !present.has(kind[lang])).map((kind) => `${kind.what}: "### ${kind[lang]}"`)).toEqual([]);
  });

  it('the two languages have the same sections', () => {
    expect(headings('de')).toHaveLength(headings('en').length);
  });

  it.each([
    ['de', 'Warteliste für einen früheren Termin', ['Geburtsdatum', 'Telefonnummer', 'E-Mail-Adresse', 'verschlüsselt', 'Gelöscht']],
    ['en', 'Waitlist for an earlier appointment', ['date of birth', 'phone number', 'email address', 'encrypted', 'deleted']],
  ] as const)('the %s waitlist section says what is kept and until when', (lang, heading, words) => {
    const text = readFileSync(`src/content/${lang}/datenschutz.md`, 'utf8');
    const start = text.indexOf(`### ${heading}`);
    const section = text.slice(start, text.indexOf('\n### ', start + 4)).replace(/\s+/g, ' ');
    for (const word of words) expect(section).toContain(word);
  });
});
