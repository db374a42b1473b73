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
  const name = localizedTypeName(type.name, type.name_en, lang);
  return {
    name: name.text,
    description: english && type.description_en ? type.description_en : type.description,
    nameLang: name.lang,
    descriptionLang: english && !type.description_en ? 'de' : undefined,
  };
}

/**
 * A type's name with its language, for the places that show only the name
 * (the wizard's later steps, the cancellation link's page, the waitlist):
 * render `text` inside an element with `lang={lang}`; `lang` is set only for
 * the German name standing in on an English page, so German pages stay as
 * they were. A plain string (an aria-label, the calendar file) takes `text`.
 */
export interface LocalizedTypeName {
  text: string;
  /** 'de' when the page is English and the German name stands in for a missing English one. */
  lang: 'de' | undefined;
}

export function localizedTypeName(name: string, nameEn: string | null, lang: Lang): LocalizedTypeName {
  const english = lang === 'en';
  return { text: english && nameEn ? nameEn : name, lang: english && !nameEn ? 'de' : undefined };
}
