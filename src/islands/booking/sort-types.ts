import type { Lang } from '../../i18n/languages';
import type { AppointmentType } from './api';

/** Cards in the page's language's alphabetical order (the API sorts by the German name). */
export function sortTypes(list: AppointmentType[], lang: Lang): AppointmentType[] {
  if (lang === 'de') return list;
  const collator = new Intl.Collator('en');
  const name = (x: AppointmentType) => x.name_en || x.name;
  return [...list].sort((a, b) => collator.compare(name(a), name(b)));
}
