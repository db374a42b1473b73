/**
 * An i18next instance fixed to one language, from the resources given.
 * Islands pass only their page's dictionary (see islands/booking/
 * booking-wizard-de.tsx); src/i18n/i18n.ts passes both.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { defaultLang, type Lang } from './languages';

export type Dictionary = Record<string, string>;

export function createI18nInstance(lang: Lang, resources: Partial<Record<Lang, Dictionary>>): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: defaultLang,
    resources: Object.fromEntries(Object.entries(resources).map(([l, translation]) => [l, { translation }])),
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    interpolation: { escapeValue: false }, // Astro and React escape output themselves
    returnNull: false,
  });
  return instance;
}
