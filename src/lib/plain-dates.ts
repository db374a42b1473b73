/**
 * Dates as the plain page scripts show them, without a date library (the
 * waitlist page loads no more than its own script: docs/decisions/038-waitlist-offers-for-freed-times.md):
 * the long form of src/lib/dates.ts's formatLongDate ("Dienstag, 8. Januar
 * 2030" / "Tuesday, 8 January 2030") and a short one with the time
 * ("Di 8.1., 09:00" / "Tue 8 Jan, 09:00"). Dates are yyyy-MM-dd Berlin
 * calendar days: the weekday comes from the date alone.
 */
import type { Lang } from '../i18n/languages';

const WEEKDAYS = {
  de: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
} as const;
const MONTHS = {
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
} as const;

function parts(iso: string): { y: number; m: number; d: number; weekday: number } {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return { y, m, d, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
}

/** "Dienstag, 8. Januar 2030" / "Tuesday, 8 January 2030". */
export function longDate(iso: string, lang: Lang): string {
  const { y, m, d, weekday } = parts(iso);
  return lang === 'de' ? `${WEEKDAYS.de[weekday]}, ${d}. ${MONTHS.de[m - 1]} ${y}` : `${WEEKDAYS.en[weekday]}, ${d} ${MONTHS.en[m - 1]} ${y}`;
}

/** "Di 8.1., 09:00" / "Tue 8 Jan, 09:00". */
export function shortWhen(iso: string, time: string, lang: Lang): string {
  const { m, d, weekday } = parts(iso);
  return lang === 'de'
    ? `${WEEKDAYS.de[weekday]!.slice(0, 2)} ${d}.${m}., ${time}`
    : `${WEEKDAYS.en[weekday]!.slice(0, 3)} ${d} ${MONTHS.en[m - 1]!.slice(0, 3)}, ${time}`;
}

/** "09:00 Uhr" / "09:00". */
export function clockTime(time: string, lang: Lang): string {
  return lang === 'de' ? `${time} Uhr` : time;
}
