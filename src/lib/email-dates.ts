/**
 * Dates in emails: every email builder formats dates
 * with `emailDate`, so an English email never shows a German date and the
 * other way round. Two forms per language:
 * - short, for subjects (and a date of birth): "26.11.2026" / "Thu 26 Nov 2026"
 *   (English spells the month: "11/26" and "26/11" mean different days to
 *   American and British readers, and the weekday helps to plan);
 * - long, for bodies: "Donnerstag, 26. November 2026" / "Thursday, 26 November 2026",
 *   the same as the wizard and the cancel page show.
 * Email tests walk every builder in both languages (email-dates.test.ts).
 */
import { format } from 'date-fns/format';
import type { Lang } from '../i18n/i18n';
import { calendarDate, dateLocales, formatLongDate } from './dates';

export type EmailDateForm = 'short' | 'long';

const SHORT = { de: 'dd.MM.yyyy', en: 'EEE d MMM yyyy' } as const;

/** A `yyyy-MM-dd` date as the emails of `lang` write it. */
export function emailDate(iso: string, lang: Lang, form: EmailDateForm): string {
  if (form === 'long') return formatLongDate(iso, lang);
  return format(calendarDate(iso), SHORT[lang], { locale: dateLocales[lang] });
}
