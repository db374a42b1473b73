/**
 * The languages and the paths between twin pages. No translation resources
 * here, so code that only needs these (islands, shared schemas) does not
 * bundle both dictionaries.
 */
export const languages = ['de', 'en'] as const;
export type Lang = (typeof languages)[number];
export const defaultLang: Lang = 'de';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** The language a URL path belongs to: /en/… is English, everything else German. */
export function langFromPath(pathname: string): Lang {
  return /^\/en(\/|$)/.test(pathname) ? 'en' : 'de';
}

/** The same page in another language: /termin ↔ /en/termin. */
export function localizedPath(pathname: string, lang: Lang): string {
  const base = pathname.replace(/^\/en(?=\/|$)/, '') || '/';
  if (lang === 'de') return base;
  return base === '/' ? '/en/' : `/en${base}`;
}
