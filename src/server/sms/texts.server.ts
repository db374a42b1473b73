/**
 * The texts of every SMS (docs/decisions/043-sms-second-channel.md), in the
 * contact's language (sms.* in src/i18n): what a lock screen may show and
 * nothing more. A text names the practice, a date and time, the practice's
 * phone, a short link (`{link}`, filled in when the SMS is queued) and at
 * most the practice's own message, cut to fit; never a type name,
 * diagnosis, medication, reason or the patient's name: carriers and
 * anyone near the phone read SMS in clear. GSM-7 only, at most two parts
 * (306 characters), checked for the longest values by the tests.
 */
import { format } from 'date-fns/format';
import { localizedPath, useTranslations, type Lang, type TranslationKey } from '../../i18n/i18n';
import { calendarDate, dateLocales } from '../../lib/dates';
import { practice } from '../../lib/practice';
import { cutToFit, gsmLength, SMS_MAX_CHARACTERS, toGsm7 } from './gsm.server';
import { SHORT_CODE_LENGTH } from './short-code.server';

/** Where the short link goes in a text; replaced by `<site>/k/<code>` when the SMS is queued. */
export const LINK_PLACEHOLDER = '{link}';

/** What an SMS tells, with the values it may carry. */
export type SmsNotice =
  /** A booking made (by phone: no link unless the caller gave an email; online: the email's fallback). */
  | { kind: 'confirmation'; date: string; time: string; link: boolean }
  | { kind: 'reminder'; date: string; time: string; link: boolean }
  | { kind: 'cancelled-by-practice'; date: string; time: string; message?: string }
  | { kind: 'moved-by-practice'; date: string; time: string; old: { date: string; time: string }; message?: string; link: boolean }
  /** The patient's own cancellation and move, as the email's fallback. */
  | { kind: 'cancelled'; date: string; time: string }
  | { kind: 'moved'; date: string; time: string }
  | { kind: 'offer'; date: string; time: string }
  | { kind: 'request-done' | 'request-declined'; reference: string };

/** "Mi 09.01." / "Wed 9 Jan": short enough for a lock screen, the weekday to plan by. */
export function smsDate(iso: string, lang: Lang): string {
  return format(calendarDate(iso), lang === 'de' ? 'EEEEEE dd.MM.' : 'EEE d MMM', { locale: dateLocales[lang] });
}

/** The practice's name as an SMS starts: at most 30 characters (practice.json allows 120). */
export function practiceLabel(lang: Lang, name: string = practice.name[lang]): string {
  return cutToFit(toGsm7(name), 30) || 'Praxis';
}

/** The link every short link has: `<site>/k/<code>`. */
export function shortLinkLength(siteUrl: string): number {
  return gsmLength(`${new URL(siteUrl).origin}/k/`) + SHORT_CODE_LENGTH;
}

interface Rendered {
  /** Keys tried in order: the first whose text fits (without the practice's message) is used. */
  keys: TranslationKey[];
  values: Record<string, string>;
  message?: string;
}

/** The practice's facts an SMS names (practice.json; tests pass the longest values allowed). */
export interface SmsFacts {
  name: string;
  phone: string;
}

function plan(notice: SmsNotice, lang: Lang, siteUrl: string, facts: SmsFacts): Rendered {
  const base = { practice: practiceLabel(lang, facts.name), phone: toGsm7(facts.phone), link: LINK_PLACEHOLDER };
  const when = (date: string, time: string) => ({ date: smsDate(date, lang), time });
  switch (notice.kind) {
    case 'confirmation':
      return { keys: [notice.link ? 'sms.confirmationLink' : 'sms.confirmation'], values: { ...base, ...when(notice.date, notice.time) } };
    case 'reminder':
      return { keys: [notice.link ? 'sms.reminderLink' : 'sms.reminder'], values: { ...base, ...when(notice.date, notice.time) } };
    case 'cancelled-by-practice':
      return {
        keys: ['sms.practiceCancelled', 'sms.practiceCancelledShort'],
        values: { ...base, ...when(notice.date, notice.time), site: new URL(localizedPath('/termin', lang), siteUrl).href },
        message: notice.message,
      };
    case 'moved-by-practice':
      return {
        keys: [notice.link ? 'sms.practiceMovedLink' : 'sms.practiceMoved'],
        values: { ...base, ...when(notice.date, notice.time), oldDate: smsDate(notice.old.date, lang), oldTime: notice.old.time },
        message: notice.message,
      };
    case 'cancelled':
      return { keys: ['sms.cancelled'], values: { ...base, ...when(notice.date, notice.time) } };
    case 'moved':
      return { keys: ['sms.moved'], values: { ...base, ...when(notice.date, notice.time) } };
    case 'offer':
      return { keys: ['sms.offer'], values: { ...base, ...when(notice.date, notice.time) } };
    case 'request-done':
    case 'request-declined':
      return { keys: [notice.kind === 'request-done' ? 'sms.requestDone' : 'sms.requestDeclined'], values: { ...base, reference: notice.reference } };
  }
}

/** Whether a notice's text carries a short link. */
export function hasLink(notice: SmsNotice): boolean {
  return smsTextFor(notice, 'de', 'http://localhost').includes(LINK_PLACEHOLDER);
}

/**
 * The text of a notice, GSM-7, at most 306 characters once `{link}` is
 * replaced by a short link on `siteUrl`: the first variant that fits, with
 * the practice's message cut to the room left ("Nachricht der Praxis: …").
 */
export function smsTextFor(notice: SmsNotice, lang: Lang, siteUrl: string, facts: SmsFacts = { name: practice.name[lang], phone: practice.phone }): string {
  const t = useTranslations(lang);
  const { keys, values, message } = plan(notice, lang, siteUrl, facts);
  const linkRoom = shortLinkLength(siteUrl);
  const measure = (text: string) => gsmLength(text.replace(LINK_PLACEHOLDER, '')) + (text.includes(LINK_PLACEHOLDER) ? linkRoom : 0);
  const render = (key: TranslationKey, note: string) => toGsm7(t(key, { ...values, message: note }));
  const key = keys.find((k) => measure(render(k, '')) <= SMS_MAX_CHARACTERS) ?? keys[keys.length - 1]!;
  const bare = render(key, '');
  const typed = message ? toGsm7(message) : '';
  if (!typed) return bare;
  // The message part adds " Nachricht der Praxis: <message>": its frame, then the message cut to the room left.
  const frame = gsmLength(toGsm7(t('sms.message', { message: 'X' })));
  for (let room = SMS_MAX_CHARACTERS - measure(bare) - frame; room > 0; ) {
    const cut = cutToFit(typed, room);
    if (!cut) break;
    const text = render(key, t('sms.message', { message: cut }));
    const over = measure(text) - SMS_MAX_CHARACTERS;
    if (over <= 0) return text;
    room -= over;
  }
  return bare;
}

/** Fills in the short link (or nothing, for a text without one). */
export function withLink(text: string, link: string | null): string {
  return link ? text.replace(LINK_PLACEHOLDER, link) : text;
}
