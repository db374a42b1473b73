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

/**
 * Pages whose English twin has a name of its own: the German path and the
 * English one without /en (and every path below them). Every other page's
 * twin is the German path under /en.
 */
const ENGLISH_NAMES: ReadonlyArray<readonly [de: string, en: string]> = [
  // The request form as the server renders it (no JavaScript): before its parent, so the whole name is matched.
  ['/anfrage/formular', '/request/form'],
  ['/anfrage', '/request'],
];

function rename(path: string, from: 0 | 1): string {
  for (const names of ENGLISH_NAMES) {
    const source = names[from];
    if (path === source || path.startsWith(`${source}/`)) return names[from === 0 ? 1 : 0] + path.slice(source.length);
  }
  return path;
}

/** The same page in another language: /termin ↔ /en/termin, /anfrage ↔ /en/request. */
export function localizedPath(pathname: string, lang: Lang): string {
  const english = /^\/en(\/|$)/.test(pathname);
  const stripped = pathname.replace(/^\/en(?=\/|$)/, '') || '/';
  const base = english ? rename(stripped, 1) : stripped;
  if (lang === 'de') return base;
  const named = rename(base, 0);
  return named === '/' ? '/en/' : `/en${named}`;
}
