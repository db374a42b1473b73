/** Date display per language (long dates in German unless English, dd.MM.y short). */
import { format } from 'date-fns/format';
// One file per locale: the index would pull every date-fns locale into function bundles.
import { de } from 'date-fns/locale/de';
import { enGB } from 'date-fns/locale/en-GB';
import type { Lang } from '../i18n/languages';

export const dateLocales = { de, en: enGB } as const;

/** A calendar date as a local Date at noon, so no host zone or DST can move it to another day. */
export function calendarDate(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 12);
}

export function toIsoDate(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}

/** "Dienstag, 24. November 2026" / "Tuesday, 24 November 2026" */
export function formatLongDate(iso: string, lang: Lang): string {
  return format(calendarDate(iso), lang === 'de' ? 'EEEE, d. MMMM yyyy' : 'EEEE, d MMMM yyyy', {
    locale: dateLocales[lang],
  });
}

// Apart and without date-fns, for modules that need no other date format (the audit's labels).
export { formatShortDate } from './short-date';

// Kept here for existing imports; it lives apart so step 1 of the wizard bundles no date library.
export { formatPrice } from './price';
