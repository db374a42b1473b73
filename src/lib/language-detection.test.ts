import { describe, expect, it } from 'vitest';
import { languageDetectionScript } from './language-detection-script';

const twins = { de: '/team', en: '/en/team' };

interface Outcome {
  redirect: string | null;
  suggest: string | null;
}

/** Runs the shipped script against a fake browser; returns where it navigated and what it suggested. */
function run(
  page: 'de' | 'en',
  { stored, languages, dismissed = false }: { stored?: string | null; languages: string[]; dismissed?: boolean },
  storageThrows = false,
): Outcome {
  const replaced: string[] = [];
  const attributes: Record<string, string> = {};
  const env = {
    localStorage: {
      getItem: (key: string) => {
        if (storageThrows) throw new Error('SecurityError');
        if (key === 'i18nextLng') return stored ?? null;
        if (key === 'langSuggestion') return dismissed ? 'dismissed' : null;
        return null;
      },
    },
    navigator: { languages, language: languages[0] ?? '' },
    location: { pathname: twins[page], search: '?token=abc', hash: '#h', replace: (href: string) => replaced.push(href) },
    document: { documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) } },
  };
  new Function('localStorage', 'navigator', 'location', 'document', languageDetectionScript(page, twins))(
    env.localStorage,
    env.navigator,
    env.location,
    env.document,
  );
  return { redirect: replaced[0] ?? null, suggest: attributes['data-lang-suggest'] ?? null };
}

describe('language detection script', () => {
  it.each([
    // page, stored choice, browser languages, expected redirect, expected suggestion
    ['de', null, ['de-DE', 'en'], null, null],
    // First visit with an English browser (a search engine's renderer, too): no redirect, a suggestion.
    ['de', null, ['en-US', 'de'], null, 'en'],
    ['de', null, ['fr-FR', 'en-GB'], null, 'en'],
    ['de', null, ['fr-FR'], null, null],
    ['de', null, [], null, null],
    ['en', null, ['de-DE'], null, 'de'],
    ['en', null, ['en-US'], null, null],
    // An explicit earlier choice redirects, keeping query and hash (e.g. the cancel page's ?token=).
    ['de', 'en', ['de-DE'], '/en/team?token=abc#h', null],
    ['de', 'en-US', ['de'], '/en/team?token=abc#h', null],
    ['en', 'de', ['en-US'], '/team?token=abc#h', null],
    // A stored choice of the page's own language: stay, no suggestion.
    ['de', 'de', ['en-US'], null, null],
    ['en', 'en', ['de-DE'], null, null],
    // Garbage in storage counts as no choice.
    ['de', 'xx', ['en'], null, 'en'],
  ] as const)('on the %s page with stored %s and browser %j → redirect %s, suggestion %s', (page, stored, languages, redirect, suggest) => {
    expect(run(page, { stored, languages: [...languages] })).toEqual({ redirect, suggest });
  });

  it('a dismissed suggestion is not shown again', () => {
    expect(run('de', { languages: ['en'], dismissed: true })).toEqual({ redirect: null, suggest: null });
    expect(run('en', { languages: ['de'], dismissed: true })).toEqual({ redirect: null, suggest: null });
  });

  it('never redirects without a stored choice, and never loops', () => {
    for (const languages of [['de'], ['en'], ['fr'], [], ['en', 'de'], ['de', 'en']]) {
      for (const page of ['de', 'en'] as const) expect(run(page, { languages }).redirect).toBeNull();
    }
    for (const stored of ['de', 'en', 'fr']) {
      for (const start of ['de', 'en'] as const) {
        const first = run(start, { stored, languages: ['en'] }).redirect;
        if (first === null) continue;
        const landed = start === 'de' ? 'en' : 'de';
        expect(run(landed, { stored, languages: ['en'] }).redirect, `${start} ${stored}`).toBeNull();
      }
    }
  });

  it('blocked storage: no redirect, the browser language still suggests', () => {
    expect(run('de', { languages: ['en'] }, true)).toEqual({ redirect: null, suggest: 'en' });
  });
});
