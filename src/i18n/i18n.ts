/**
 * One translation system for Astro pages and React islands (Starlight's
 * createTranslationSystem pattern): flat, dot-namespaced keys in one JSON
 * file per language, and an i18next instance fixed to one language.
 * Islands receive the language from their page; they never detect it.
 */
import type { i18n as I18n, TOptions } from 'i18next';
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import { createI18nInstance } from './i18n-instance';
import type { Lang } from './languages';

export { languages, defaultLang, isLang, langFromPath, localizedPath, type Lang } from './languages';

export type TranslationKey = keyof typeof de;
export const dictionaries: Record<Lang, Record<TranslationKey, string>> = { de, en };

/** A ready i18next instance for one language; German fills any gap. */
export function createI18n(lang: Lang): I18n {
  return createI18nInstance(lang, { de, en });
}

export type Translate = (key: TranslationKey, options?: TOptions) => string;

/**
 * One instance per language for the whole process: the dictionaries never
 * change at run time, and making an i18next instance costs milliseconds
 * (every email a booking queues asks for one).
 */
const shared: Partial<Record<Lang, I18n>> = {};

export function useTranslations(lang: Lang): Translate {
  const instance = (shared[lang] ??= createI18n(lang));
  return (key, options) => instance.t(key, options ?? {}) as string;
}
