import { describe, expect, it } from 'vitest';
import { languageDetectionScript } from './language-detection';

const twins = { de: '/team', en: '/en/team' };

/** Runs the shipped script against a fake browser; returns where it navigated, if anywhere. */
function run(page: 'de' | 'en', { stored, languages }: { stored?: string | null; languages: string[] }, storageThrows = false) {
  const replaced: string[] = [];
  const env = {
    localStorage: {
      getItem: (key: string) => {
        if (storageThrows) throw new Error('SecurityError');
        return key === 'i18nextLng' ? (stored ?? null) : null;
      },
    },
    navigator: { languages, language: languages[0] ?? '' },
    location: { pathname: twins[page], search: '?x=1', hash: '#h', replace: (href: string) => replaced.push(href) },
  };
  new Function('localStorage', 'navigator', 'location', languageDetectionScript(page, twins))(env.localStorage, env.navigator, env.location);
  return replaced[0] ?? null;
}

describe('language detection script', () => {
  it.each([
    // page, stored, browser languages, expected navigation
    ['de', null, ['de-DE', 'en'], null],
    ['de', null, ['en-US', 'de'], '/en/team?x=1#h'],
    ['de', null, ['fr-FR', 'en-GB'], '/en/team?x=1#h'],
    ['de', null, ['fr-FR'], null],
    ['de', null, [], null],
    ['de', 'en', ['de-DE'], '/en/team?x=1#h'],
    ['de', 'de', ['en-US'], null],
    ['de', 'en-US', ['de'], '/en/team?x=1#h'],
    ['de', 'xx', ['en'], '/en/team?x=1#h'],
    ['en', null, ['de-DE'], null],
    ['en', null, ['en-US'], null],
    ['en', 'de', ['en-US'], '/team?x=1#h'],
    ['en', 'en', ['de-DE'], null],
  ] as const)('on the %s page with stored %s and browser %j → %s', (page, stored, languages, expected) => {
    expect(run(page, { stored, languages: [...languages] })).toBe(expected);
  });

  it('never loops: following a redirect never redirects back', () => {
    for (const stored of [null, 'de', 'en', 'fr']) {
      for (const languages of [['de'], ['en'], ['fr'], [], ['en', 'de'], ['de', 'en']]) {
        for (const start of ['de', 'en'] as const) {
          const first = run(start, { stored, languages });
          if (first === null) continue;
          const landed = start === 'de' ? 'en' : 'de';
          expect(run(landed, { stored, languages }), `${start} ${stored} ${languages}`).toBeNull();
        }
      }
    }
  });

  it('falls back to the browser languages when storage is blocked', () => {
    expect(run('de', { languages: ['en'] }, true)).toBe('/en/team?x=1#h');
  });
});
