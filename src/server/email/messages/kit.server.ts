/**
 * The kit every email builder shares: dates as emails write them, the
 * details table, the patient emails' frame (page, greeting, footer), the
 * patient's links and the appointment's calendar file. Pure: nothing here
 * sends or reads configuration.
 */
import { format } from 'date-fns/format';
import { localizedPath, useTranslations, type Lang, type Translate } from '../../../i18n/i18n';
import { calendarDate, dateLocales, formatLongDate } from '../../../lib/dates';
import { escapeHtml } from '../../../lib/html';
import { buildIcs, type CalendarMethod } from '../../../lib/ics';
import { fullAddress, practice } from '../../../lib/practice';
import { formatPrice } from '../../../lib/price';
import type { AppointmentTypeRow } from '../../../../db/schema';
import type { EmailAttachment } from '../port.server';

// ---------------------------------------------------------------------------
// Dates

/**
 * Dates in emails: every email builder formats dates with `emailDate`, so
 * an English email never shows a German date and the other way round. Two
 * forms per language:
 * - short, for subjects (and a date of birth): "26.11.2026" / "Thu 26 Nov 2026"
 *   (English spells the month: "11/26" and "26/11" mean different days to
 *   American and British readers, and the weekday helps to plan);
 * - long, for bodies: "Donnerstag, 26. November 2026" / "Thursday, 26 November 2026",
 *   the same as the wizard and the cancel page show.
 * Email tests walk every builder in both languages (messages.test.ts).
 */
export type EmailDateForm = 'short' | 'long';

const SHORT = { de: 'dd.MM.yyyy', en: 'EEE d MMM yyyy' } as const;

/** A `yyyy-MM-dd` date as the emails of `lang` write it. */
export function emailDate(iso: string, lang: Lang, form: EmailDateForm): string {
  if (form === 'long') return formatLongDate(iso, lang);
  return format(calendarDate(iso), SHORT[lang], { locale: dateLocales[lang] });
}

// ---------------------------------------------------------------------------
// Details and frame

export type DetailRow = [string, string];

/** Label–value pairs as a table (HTML, escaped) and as lines (text). */
export function rows(pairs: DetailRow[]): { html: string; text: string } {
  return {
    html: `<table role="presentation" cellpadding="4" style="border-collapse:collapse">${pairs
      .map(([k, v]) => `<tr><th align="left" style="padding-right:16px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('')}</table>`,
    text: pairs.map(([k, v]) => `${k}: ${v}`).join('\n'),
  };
}

export function typeName(type: Pick<AppointmentTypeRow, 'name' | 'nameEn'>, lang: Lang): string {
  return lang === 'en' && type.nameEn ? type.nameEn : type.name;
}

/** The price row of a self-pay type; nothing for a type without a price. */
export function priceRow(type: { priceCents?: number | null }, lang: Lang, t: Translate = useTranslations(lang)): DetailRow[] {
  return type.priceCents === null || type.priceCents === undefined ? [] : [[t('email.label.price'), formatPrice(type.priceCents, lang)]];
}

/** The practice's name and address, as the address row writes them. */
export function addressRow(lang: Lang, t: Translate): DetailRow {
  return [t('email.label.address'), `${practice.name[lang]}, ${fullAddress()}`];
}

/** The opening of a patient email's HTML body, in the email's language. */
export function patientHtmlStart(lang: Lang): string {
  return `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1e293b">`;
}

/** The patient emails' greeting: "Guten Tag <name>," / "Dear <name>,". */
export function greeting(t: Translate, name: string): string {
  return t('email.patient.greeting', { name });
}

/** The patient emails' sign-off: regards, the practice's name and its phone, as an HTML paragraph and as lines. */
export function signOff(t: Translate, lang: Lang): { html: string; text: string[] } {
  const regards = t('email.patient.regards');
  const signature = t('email.patient.signature', { practice: practice.name[lang] });
  return {
    html: `<p>${escapeHtml(regards)}<br>${escapeHtml(signature)}<br>${escapeHtml(practice.phone)}</p>`,
    text: [regards, signature, practice.phone],
  };
}

// ---------------------------------------------------------------------------
// Links

/** The patient's link that moves or cancels the appointment. */
export function cancellationUrl(siteUrl: string, token: string, lang: Lang): string {
  const url = new URL(localizedPath('/termin/absagen', lang), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}

/** The booking page, to book again. */
export function rebookUrl(siteUrl: string, lang: Lang): string {
  return new URL(localizedPath('/termin', lang), siteUrl).href;
}

// ---------------------------------------------------------------------------
// Calendar

/**
 * The calendar event of a booking: its UID is the booking's id, so every
 * later .ics (moved: METHOD:REQUEST with a higher SEQUENCE; cancelled:
 * METHOD:CANCEL) updates or removes the same entry. The practice is the
 * organizer, the patient the one attendee (docs/decisions/029).
 */
export function appointmentIcs(input: {
  bookingId: string;
  siteUrl: string;
  date: string;
  time: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>;
  lang: Lang;
  /** The patient's link (move or cancel); none for a cancelled appointment. */
  link?: string;
  sequence: number;
  method: CalendarMethod;
  /** The patient, to whom the email goes. */
  attendee: { name?: string; email: string };
}): string {
  const t = useTranslations(input.lang);
  const practiceName = practice.name[input.lang];
  const type = typeName(input.type, input.lang);
  return buildIcs({
    uid: `${input.bookingId}@${new URL(input.siteUrl).hostname}`,
    date: input.date,
    time: input.time,
    durationMinutes: input.type.slotDurationMinutes,
    summary: t('email.calendarSummary', { type, practice: practiceName }),
    location: `${practiceName}, ${fullAddress()}`,
    description: input.link ? `${t('email.patient.cancelIntro')} ${input.link}` : t('email.calendarCancelled'),
    ...(input.link ? { url: input.link } : {}),
    stamp: new Date(),
    method: input.method,
    sequence: input.sequence,
    organizer: { name: practiceName, email: practice.email },
    attendee: input.attendee,
  });
}

/** The .ics as the email's text/calendar part; its `method` parameter names the same METHOD as the file (RFC 6047 §2.4). */
export function icsAttachment(ics: string, lang: Lang, method: CalendarMethod): EmailAttachment {
  return {
    filename: lang === 'de' ? 'termin.ics' : 'appointment.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: ics,
  };
}
