import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../i18n/i18n';

const here = path.dirname(new URL(import.meta.url).pathname);
const sources = [path.join(here, 'contact-form.tsx'), path.join(here, '../../lib/contact-message.ts')];
const allKeys = new Set(Object.keys(dictionaries.de));

describe('the contact form’s translations', () => {
  it('every translation key its sources mention is in the contact namespace it ships', () => {
    const mentioned = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`]([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)['"`]/g)].map((m) => m[1]!).filter((k) => allKeys.has(k)),
    );
    expect(mentioned.length).toBeGreaterThan(15);
    expect(mentioned.filter((key) => !key.startsWith('contact.'))).toEqual([]);
  });

  it.each(['de', 'en'] as const)('the %s wrapper imports the %s contact texts only', (lang) => {
    const wrapper = readFileSync(path.join(here, `contact-form-${lang}.tsx`), 'utf8');
    expect(wrapper).toContain(`virtual:island-translations/${lang}/contact'`);
  });
});
