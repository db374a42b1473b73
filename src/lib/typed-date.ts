/** Dates as a patient types them (docs/decisions/029), without the schema library: also for the plain page scripts. */
import type { Lang } from '../i18n/languages';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** dd.mm.yyyy as typed in the form → yyyy-MM-dd, or null when it is not that shape. */
export function germanDateToIso(value: string): string | null {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value.trim());
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
}

/**
 * A date as a patient types it → yyyy-MM-dd (not checked to be real), or
 * null when it is none of the page's shapes (docs/decisions/029): German
 * DD.MM.YYYY; English DD/MM/YYYY, DD.MM.YYYY or yyyy-mm-dd (day first, as
 * in Britain and Germany; never the American month first).
 */
export function typedDateToIso(value: string, lang: Lang): string | null {
  const v = value.trim();
  const german = germanDateToIso(v);
  if (german || lang === 'de') return german;
  const slashed = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(v);
  if (slashed) return `${slashed[3]}-${slashed[2]}-${slashed[1]}`;
  return ISO_DATE.test(v) ? v : null;
}
