import { describe, expect, it } from 'vitest';
import { dictionaries, languages, localizedPath, langFromPath, useTranslations } from './i18n';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translation resources', () => {
  const [reference, ...others] = languages;
  const referenceKeys = Object.keys(dictionaries[reference]).sort();

  it.each(others)('%s has exactly the keys of de', (lang) => {
    expect(Object.keys(dictionaries[lang]).sort()).toEqual(referenceKeys);
  });

  it.each(languages)('%s keys are dot-namespaced and values non-empty', (lang) => {
    for (const [key, value] of Object.entries(dictionaries[lang])) {
      expect(key).toMatch(/^[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/);
      expect(value.trim(), key).not.toBe('');
    }
  });

  it.each(others)('%s uses the same interpolation variables as de', (lang) => {
    for (const key of referenceKeys) {
      const ref = dictionaries[reference][key as keyof (typeof dictionaries)['de']];
      const other = dictionaries[lang][key as keyof (typeof dictionaries)['de']];
      expect(placeholders(other), key).toEqual(placeholders(ref));
    }
  });
});

describe('useTranslations', () => {
  it('translates flat dotted keys per language with interpolation', () => {
    expect(useTranslations('de')('nav.booking')).toBe('Online buchen');
    expect(useTranslations('en')('nav.booking')).toBe('Book Online');
    expect(useTranslations('en')('home.call', { phone: '0211 1' })).toBe('Call: 0211 1');
  });

  it('does not escape values (Astro and React escape on output)', () => {
    expect(useTranslations('de')('footer.copyright', { year: 2026, name: 'A & B' })).toBe('© 2026 A & B');
  });
});

describe('localized paths', () => {
  it.each([
    ['/', 'en', '/en/'],
    ['/en/', 'de', '/'],
    ['/en', 'de', '/'],
    ['/termin', 'en', '/en/termin'],
    ['/en/termin', 'de', '/termin'],
    ['/en/termin', 'en', '/en/termin'],
    ['/termin/absagen', 'en', '/en/termin/absagen'],
    ['/english-page', 'de', '/english-page'],
    // The request page's English twin has a name of its own.
    ['/anfrage', 'en', '/en/request'],
    ['/anfrage/status', 'en', '/en/request/status'],
    ['/anfrage/formular', 'en', '/en/request/form'],
    ['/en/request/form', 'de', '/anfrage/formular'],
    ['/en/request', 'de', '/anfrage'],
    ['/en/request/status', 'de', '/anfrage/status'],
    ['/en/request', 'en', '/en/request'],
    ['/anfrage', 'de', '/anfrage'],
    ['/anfragen', 'en', '/en/anfragen'],
    ['/request', 'de', '/request'],
  ] as const)('%s in %s is %s', (path, lang, expected) => {
    expect(localizedPath(path, lang)).toBe(expected);
  });

  it('reads the language from the path', () => {
    expect(langFromPath('/en/team')).toBe('en');
    expect(langFromPath('/en')).toBe('en');
    expect(langFromPath('/entdecken')).toBe('de');
    expect(langFromPath('/team')).toBe('de');
  });
});
