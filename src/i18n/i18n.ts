/**
 * One translation system for Astro pages and React islands (Starlight's
 * createTranslationSystem pattern): flat, dot-namespaced keys in one JSON
 * file per language, and an i18next instance fixed to one language.
 * Islands receive the language from their page; they never detect it.
 */
import i18next, { type i18n as I18n, type TOptions } from 'i18next';
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };

export const languages = ['de', 'en'] as const;
export type Lang = (typeof languages)[number];
export const defaultLang: Lang = 'de';

export type TranslationKey = keyof typeof de;
export const dictionaries: Record<Lang, Record<TranslationKey, string>> = { de, en };

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** A ready i18next instance for one language; German fills any gap. */
export function createI18n(lang: Lang): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: defaultLang,
    resources: { de: { translation: de }, en: { translation: en } },
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false }, // Astro and React escape output themselves
    returnNull: false,
  });
  return instance;
}

export type Translate = (key: TranslationKey, options?: TOptions) => string;

export function useTranslations(lang: Lang): Translate {
  const instance = createI18n(lang);
  return (key, options) => instance.t(key, options ?? {}) as string;
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
