/**
 * How long a patient must wait after a 429, from its Retry-After header
 * (RFC 9110 §10.2.3: seconds or an HTTP date), said in the page's language
 * ("in 2 Minuten", "in 2 minutes"; docs/decisions/029).
 */
import type { Lang } from '../i18n/languages';

/** Seconds to wait, or null when the header is missing or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, now: number = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "in 45 Sekunden", "in 2 Minuten", "in 1 Stunde" (rounded up, so the patient never tries too early). */
export function waitPhrase(seconds: number, lang: Lang): string {
  const format = new Intl.RelativeTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { numeric: 'always' });
  const s = Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 60;
  if (s < 60) return format.format(s, 'second');
  if (s < 3600) return format.format(Math.ceil(s / 60), 'minute');
  return format.format(Math.ceil(s / 3600), 'hour');
}
