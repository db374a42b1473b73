/**
 * A consultation type's name and description in a page's language. A type
 * saved without English text shows its German one on the English pages;
 * that text is then marked `lang="de"` so screen readers and translation
 * tools read it as German (docs/decisions/030). The back office warns when
 * such a type is saved.
 */
import type { Lang } from '../i18n/languages';

interface TypeTexts {
  name: string;
  name_en: string | null;
  description: string;
  description_en: string | null;
}

export interface LocalizedTypeText {
  name: string;
  description: string;
  /** 'de' when the page is English and the German name stands in for a missing English one. */
  nameLang: 'de' | undefined;
  descriptionLang: 'de' | undefined;
}

export function localizedTypeText(type: TypeTexts, lang: Lang): LocalizedTypeText {
  const english = lang === 'en';
  return {
    name: english && type.name_en ? type.name_en : type.name,
    description: english && type.description_en ? type.description_en : type.description,
    nameLang: english && !type.name_en ? 'de' : undefined,
    descriptionLang: english && !type.description_en ? 'de' : undefined,
  };
}
