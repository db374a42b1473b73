/**
 * Every email writes its dates in its own language, in subject and body. Walks every email builder (the list is checked against
 * the sources, so a new builder cannot be forgotten) in both languages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Lang } from '../../../i18n/i18n';
import type { EmailMessage } from '../port.server';
import { cancellationNotice, patientConfirmation, practiceNotification, practiceRescheduleNotification, type BookingEmailInput } from './booking.server';
import { buildPasswordLinkEmail, buildSecondFactorResetEmail, buildSecurityNoticeEmail, buildWrongCodesAlertEmail } from './account.server';
import { buildContactEmail } from './contact.server';
import { emailDate } from './kit.server';
import { buildReminderEmail } from './reminder.server';
import { patientNotice } from './patient-notice.server';
import { joinedEmail, offerEmail } from './waitlist.server';
import { practiceRequestsNotice, requestReceiptEmail, requestStatusEmail } from './requests.server';
import type { EntrySecret } from '../../waitlist/seal.server';

// A Thursday in March: month and weekday are spelled differently in German and English.
const DAY = '2027-03-04';
const MOVED_TO = '2027-03-09';
const SITE = 'https://praxis.example';
const type = { name: 'Impfung', nameEn: 'Vaccination', slotDurationMinutes: 10, priceCents: null };

const booking = (language: Lang): BookingEmailInput => ({
  bookingId: '00000000-0000-4000-8000-000000000001',
  token: 'x'.repeat(43),
  reference: 'K7M2QX',
  type,
  date: DAY,
  time: '09:30',
  patient: { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', phone: '+49 211 5550123', email: 'erika@example.org' },
  language,
});

/** What an email is in: the language of its body and the dates it must show (none for the staff emails). */
interface Built {
  email: EmailMessage;
  lang: Lang;
  dates: string[];
  /** Dates the body writes short, as a range in a sentence (the waitlist's confirmation). */
  shortInBody?: string[];
}

const waitlistEntry = (language: Lang): EntrySecret => ({
  email: 'erika@example.org',
  firstName: 'Erika',
  lastName: 'Mustermann',
  language,
  birthDate: '1964-08-12',
  phone: null,
  token: 'x'.repeat(43),
});

/** Every builder of an email, by its exported name, for a booking (or page) in `lang`. */
const builders: Record<string, (lang: Lang) => Built> = {
  patientConfirmation: (lang) => ({ email: patientConfirmation(booking(lang), SITE), lang, dates: [DAY] }),
  // The practice's emails are German whatever the patient's language.
  practiceNotification: (lang) => ({ email: practiceNotification(booking(lang), 'praxis@example.org', { siteUrl: 'https://praxis.example', details: 'full' }), lang: 'de', dates: [DAY] }),
  practiceRescheduleNotification: (lang) => ({
    email: practiceRescheduleNotification(
      { reference: 'K7M2QX', type, old: { date: DAY, time: '09:30' }, moved: { date: MOVED_TO, time: '10:00' }, language: lang, via: 'link' },
      'praxis@example.org',
    ),
    lang: 'de',
    dates: [DAY, MOVED_TO],
  }),
  cancellationNotice: () => ({
    email: cancellationNotice({ type, date: DAY, time: '09:30', reference: 'K7M2QX' }, 'praxis@example.org'),
    lang: 'de',
    dates: [DAY],
  }),
  buildReminderEmail: (lang) => ({
    email: buildReminderEmail({ to: 'erika@example.org', firstName: 'Erika', language: lang, token: 'x'.repeat(43), type, date: DAY, time: '09:30' }, SITE),
    lang,
    dates: [DAY],
  }),
  // The patient's notices of a change, here a move by the practice: old and new date.
  patientNotice: (lang) => ({
    email: patientNotice(
      {
        kind: 'moved-by-practice',
        contact: { email: 'erika@example.org', firstName: 'Erika', lastName: 'Mustermann', language: lang, token: 'x'.repeat(43), birthDate: '', phone: '' },
        bookingId: '00000000-0000-4000-8000-000000000001',
        reference: 'K7M2QX',
        type,
        date: MOVED_TO,
        time: '10:00',
        old: { date: DAY, time: '09:30' },
        sequence: 1,
      },
      SITE,
    ),
    lang,
    dates: [DAY, MOVED_TO],
  }),
  buildContactEmail: (lang) => ({
    email: buildContactEmail({ name: 'Erika', email: 'erika@example.org', phone: undefined, subject: undefined, message: 'Bitte um Rückruf.', language: lang }, 'praxis@example.org'),
    lang: 'de',
    dates: [],
  }),
  // The waitlist's offer of a freed time (docs/decisions/032-waitlist.md), here with the patient's current booking.
  offerEmail: (lang) => ({
    email: offerEmail(waitlistEntry(lang), { token: 'y'.repeat(43), date: MOVED_TO, time: '10:00', type, current: { date: DAY, time: '09:30' } }, SITE),
    lang,
    dates: [DAY, MOVED_TO],
  }),
  // Joining the waitlist: no date in the subject, the wished range short in the sentence.
  joinedEmail: (lang) => ({
    email: joinedEmail(waitlistEntry(lang), { from: DAY, to: MOVED_TO, type }, SITE),
    lang,
    dates: [],
    shortInBody: [DAY, MOVED_TO],
  }),
  buildPasswordLinkEmail: () => ({
    email: buildPasswordLinkEmail({ purpose: 'reset', to: 'team@example.org', link: `${SITE}/auth/reset?token=abc` }),
    lang: 'de',
    dates: [],
  }),
  buildSecondFactorResetEmail: () => ({
    email: buildSecondFactorResetEmail({ to: 'team@example.org', resetBy: 'chefin@example.org', siteUrl: SITE }),
    lang: 'de',
    dates: [],
  }),
  buildSecurityNoticeEmail: () => ({
    // German like the back office, its time in German words.
    email: buildSecurityNoticeEmail({ to: 'team@example.org', event: 'recovery-code-used', at: new Date('2027-03-04T08:15:00Z'), codesLeft: 7 }),
    lang: 'de',
    dates: [],
  }),
  buildWrongCodesAlertEmail: () => ({
    email: buildWrongCodesAlertEmail({ to: 'team@example.org', siteUrl: SITE, wrongCodes: 5, closed: false }),
    lang: 'de',
    dates: [],
  }),
  // A patient request's receipt and status (docs/decisions/036): the status names the day it arrived, in the email's language.
  requestReceiptEmail: (lang) => ({
    email: requestReceiptEmail(requestPatient(lang), { kind: 'prescription', reference: 'R7K2MQ', notice: null }, SITE),
    lang,
    dates: [],
  }),
  requestStatusEmail: (lang) => ({
    email: requestStatusEmail(requestPatient(lang), { kind: 'referral', reference: 'R7K2MQ', status: 'done', message: 'Liegt bereit.', receivedDate: DAY }, SITE),
    lang,
    dates: [],
  }),
  practiceRequestsNotice: () => ({
    email: practiceRequestsNotice({ fresh: 2, open: 5 }, 'praxis@example.org', SITE),
    lang: 'de',
    dates: [],
  }),
};

/** Exported functions in src/ that return an EmailMessage: the builders this file must cover. */
const requestPatient = (lang: 'de' | 'en') => ({ email: 'erika@example.org', first_name: 'Erika', last_name: 'Mustermann', language: lang, token: 'z'.repeat(43) });

/** Every exported function of this folder (the builders' home) that answers an EmailMessage. */
function builderNamesInSources(): string[] {
  const root = import.meta.dirname;
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  const names: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    // A builder's return type names EmailMessage; parsing only those files keeps the walk fast.
    if (!/\bEmailMessage\b/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const node of source.statements) {
      const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exported && ts.isFunctionDeclaration(node) && node.name && /\bEmailMessage\b/.test(node.type?.getText(source) ?? '')) {
        names.push(node.name.text);
      }
    }
  }
  return names.sort();
}

// Dates the other language would write: German numeric dates, or English/German month and day names.
const GERMAN_DATE = /\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\b(Januar|Februar|März|Mai|Juni|Juli|Oktober|Dezember|Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)\b/;
const ENGLISH_DATE = /\b(January|February|March|May|June|July|October|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/;

describe('email dates', () => {
  it('formats per language: short for subjects, long for bodies', () => {
    expect(emailDate(DAY, 'de', 'short')).toBe('04.03.2027');
    expect(emailDate(DAY, 'en', 'short')).toBe('Thu 4 Mar 2027');
    expect(emailDate(DAY, 'de', 'long')).toBe('Donnerstag, 4. März 2027');
    expect(emailDate(DAY, 'en', 'long')).toBe('Thursday, 4 March 2027');
  });

  it('covers every email builder in the sources', () => {
    expect(Object.keys(builders).sort()).toEqual(builderNamesInSources());
  });

  for (const name of Object.keys(builders)) {
    for (const requested of ['de', 'en'] as const) {
      it(`${name} (${requested} booking): dates in the email's own language, in subject and body`, () => {
        const { email, lang, dates, shortInBody = [] } = builders[name]!(requested);
        expect(email.html).toContain(`<html lang="${lang}"`);
        const foreign = lang === 'en' ? GERMAN_DATE : ENGLISH_DATE;
        for (const [part, text] of [['subject', email.subject], ['text', email.text], ['html', email.html]] as const) {
          // Addresses, links and the reference are no dates; drop them before looking.
          const visible = text.replace(/https?:\/\/\S+|\S+@\S+/g, '');
          expect(visible, `${name} ${part}`).not.toMatch(foreign);
        }
        if (dates.length > 0) {
          expect(email.subject, `${name} subject`).toContain(emailDate(dates.at(-1)!, lang, 'short'));
          for (const date of dates) {
            expect(email.text, `${name} text`).toContain(emailDate(date, lang, 'long'));
            expect(email.html, `${name} html`).toContain(emailDate(date, lang, 'long'));
          }
        }
        for (const date of shortInBody) {
          expect(email.text, `${name} text`).toContain(emailDate(date, lang, 'short'));
          expect(email.html, `${name} html`).toContain(emailDate(date, lang, 'short'));
        }
      });
    }
  }
});

describe("the practice's notice of a move says where it came from", () => {
  const move = { reference: 'K7M2QX', type, old: { date: DAY, time: '09:30' }, moved: { date: MOVED_TO, time: '10:00' }, language: 'en' as const };
  const notice = (input: Partial<Parameters<typeof practiceRescheduleNotification>[0]> & { via: 'link' | 'waitlist' | 'staff' }, siteUrl?: string) =>
    practiceRescheduleNotification({ ...move, ...input }, 'praxis@example.org', { siteUrl });

  it.each([
    [
      'link',
      'Termin online verschoben: Impfung, jetzt am 09.03.2027 um 10:00 Uhr',
      'Ein Termin wurde über den Link in der Bestätigungs-E-Mail verschoben. Die bisherige Zeit ist wieder frei.',
      'Verschoben über: den Link in der Bestätigungs-E-Mail',
    ],
    [
      'waitlist',
      'Termin über die Warteliste vorgezogen: Impfung, jetzt am 09.03.2027 um 10:00 Uhr',
      'Jemand von der Warteliste hat eine frei gewordene frühere Zeit angenommen. Der Termin wurde auf diese Zeit vorgezogen. Die bisherige Zeit ist wieder frei und wird der Warteliste angeboten.',
      'Verschoben über: die Warteliste',
    ],
    [
      'staff',
      'Termin in der Verwaltung verschoben: Impfung, jetzt am 09.03.2027 um 10:00 Uhr',
      'chefin@praxis.example hat einen Termin in der Verwaltung verschoben. Die bisherige Zeit ist wieder frei.',
      'Verschoben über: die Verwaltung (chefin@praxis.example)',
    ],
  ] as const)('%s: subject, first sentence and a row say so', (via, subject, intro, row) => {
    const email = notice({ via, movedBy: via === 'staff' ? 'chefin@praxis.example' : undefined });
    expect(email.subject).toBe(subject);
    expect(email.text.split('\n')[0]).toBe(intro);
    expect(email.text).toContain(row);
    expect(email.html).toContain(`<p>${intro}</p>`);
  });

  it('reads as one appointment each: the new time first, then the former one, with the reference and the language of the emails', () => {
    const { text } = notice({ via: 'link' });
    const lines = text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Buchungsnummer: K7M2QX',
        'Terminart: Impfung',
        'Neuer Termin: Dienstag, 9. März 2027, 10:00 Uhr',
        'Bisheriger Termin: Donnerstag, 4. März 2027, 09:30 Uhr',
        'Dauer: 10 Minuten',
        'Sprache der E-Mails: Englisch',
      ]),
    );
    expect(lines.findIndex((l) => l.startsWith('Neuer Termin'))).toBeLessThan(lines.findIndex((l) => l.startsWith('Bisheriger Termin')));
  });

  it('a staff move without a name says "Ein Teammitglied"', () => {
    expect(notice({ via: 'staff' }).text.split('\n')[0]).toBe('Ein Teammitglied hat einen Termin in der Verwaltung verschoben. Die bisherige Zeit ist wieder frei.');
  });

  it("given the booking's id and the site, it links to the booking in the back office", () => {
    const email = notice({ via: 'waitlist', bookingId: '00000000-0000-4000-8000-000000000001' }, SITE);
    expect(email.text).toContain(`Den Termin in der Verwaltung ansehen:\n${SITE}/admin/booked-slots?buchung=00000000-0000-4000-8000-000000000001`);
    expect(email.html).toContain(`href="${SITE}/admin/booked-slots?buchung=00000000-0000-4000-8000-000000000001"`);
    expect(notice({ via: 'waitlist' }).text).not.toContain('/admin/');
  });
});

describe("the practice's notices read as plain German (docs/decisions/040-pages-without-javascript-and-repeated-requests.md)", () => {
  const patient = { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', phone: '0211 5550123', email: 'erika@example.org' };
  const notices = {
    booking: practiceNotification({ ...booking('de'), patient }, 'praxis@example.org', { siteUrl: SITE }),
    moveByLink: practiceRescheduleNotification({ reference: 'K7M2QX', type, old: { date: DAY, time: '09:30' }, moved: { date: MOVED_TO, time: '10:00' }, language: 'de', via: 'link' }, 'praxis@example.org'),
    moveByWaitlist: practiceRescheduleNotification({ reference: 'K7M2QX', type, old: { date: DAY, time: '09:30' }, moved: { date: MOVED_TO, time: '10:00' }, language: 'de', via: 'waitlist' }, 'praxis@example.org'),
    cancellation: cancellationNotice({ type, date: DAY, time: '09:30', reference: 'K7M2QX' }, 'praxis@example.org'),
    requests: practiceRequestsNotice({ fresh: 2, open: 5 }, 'praxis@example.org', SITE),
  };

  it('a new booking: what, when, the reference and the way to the booking, in sentences reception would say', () => {
    const { subject, text } = notices.booking;
    expect(subject).toBe('Neuer Online-Termin: Impfung am 04.03.2027 um 09:30 Uhr');
    expect(text.split('\n')).toEqual([
      'Über unsere Website wurde ein Termin gebucht:',
      '',
      'Buchungsnummer: K7M2QX',
      'Terminart: Impfung',
      'Datum: Donnerstag, 4. März 2027',
      'Uhrzeit: 09:30 Uhr',
      'Dauer: 10 Minuten',
      '',
      'Den Termin in der Verwaltung ansehen:',
      `${SITE}/admin/booked-slots?buchung=${booking('de').bookingId}`,
      '',
      'Wer kommt, sehen Sie nach der Anmeldung in der Verwaltung. In dieser E-Mail steht das aus Datenschutzgründen nicht.',
      '',
    ]);
  });

  it.each(Object.entries(notices))('%s: no slashed forms, no bare field codes, nothing of the patient', (_name, email) => {
    for (const part of [email.subject, email.text, email.html]) {
      // "Patient/in", "der Patientin / des Patienten", "Quelle: online": the wording of a form, not of a person.
      expect(part).not.toMatch(/\/in\b|in \/ de|Quelle|Patient\/|Patientendaten/);
      for (const value of ['Erika', 'Mustermann', '1964', '5550123', 'erika@example.org']) expect(part).not.toContain(value);
    }
  });
});
