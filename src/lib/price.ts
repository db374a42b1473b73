import type { Lang } from '../i18n/languages';

/** Euros in the page's locale: 35 € / €35.00; null prices are not shown. Intl only, no date library. */
const formats: Partial<Record<Lang, Intl.NumberFormat>> = {};

export function formatPrice(cents: number, lang: Lang): string {
  // Made once per language: a NumberFormat costs far more to build than to use.
  const euros = (formats[lang] ??= new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: 'EUR' }));
  return euros.format(cents / 100);
}
