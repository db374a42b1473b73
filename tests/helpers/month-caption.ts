/** The calendars' month caption, also their grid's name, for unit and e2e tests. */
export const locales = { de: 'de-DE', en: 'en-US' } as const;

/** "Dezember 2026" / "December 2026" for a yyyy-MM or yyyy-MM-dd date. */
export function monthCaption(date: string, lang: 'de' | 'en' = 'de'): string {
  return new Intl.DateTimeFormat(locales[lang], { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date.slice(0, 7)}-15T12:00:00Z`));
}
