import type { Lang } from '../i18n/languages';

/** Euros in the page's locale: 35 € / €35.00; null prices are not shown. Intl only, no date library. */
export function formatPrice(cents: number, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(
    cents / 100,
  );
}
