/** Opening hours from practice.json, formatted for people and for schema.org. */
import type { Lang } from '../i18n/languages';
import type { Practice } from './practice';

const LOCALES: Record<Lang, string> = { de: 'de-DE', en: 'en-GB' };
const RANGE_WORD: Record<Lang, string> = { de: 'bis', en: 'to' };
// 2023-01-01 was a Sunday, so day n of that week has getUTCDay() === n.
const dayDate = (day: number) => new Date(Date.UTC(2023, 0, 1 + day));
const SCHEMA_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export function weekdayName(day: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { weekday: 'long', timeZone: 'UTC' }).format(dayDate(day));
}

/** [1,2,3,4,5] → "Montag bis Freitag"; non-consecutive days are listed. */
export function formatDays(days: readonly number[], lang: Lang): string {
  const sorted = [...days].sort((a, b) => a - b);
  const consecutive = sorted.every((d, i) => i === 0 || d === sorted[i - 1]! + 1);
  if (sorted.length > 2 && consecutive) {
    return `${weekdayName(sorted[0]!, lang)} ${RANGE_WORD[lang]} ${weekdayName(sorted[sorted.length - 1]!, lang)}`;
  }
  return sorted.map((d) => weekdayName(d, lang)).join(', ');
}

export interface OpeningHoursRow {
  days: string;
  hours: string;
}

export function openingHoursRows(practice: Practice, lang: Lang): OpeningHoursRow[] {
  return practice.openingHours.map((h) => ({ days: formatDays(h.days, lang), hours: `${h.opens}–${h.closes}` }));
}

/** schema.org OpeningHoursSpecification entries. */
export function schemaOrgOpeningHours(practice: Practice) {
  return practice.openingHours.map((h) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: h.days.map((d) => `https://schema.org/${SCHEMA_DAYS[d]}`),
    opens: h.opens,
    closes: h.closes,
  }));
}
