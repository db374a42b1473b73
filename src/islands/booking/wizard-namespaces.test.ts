import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../i18n/i18n';
import { pickNamespaces } from '../../i18n/island-translations';
import { WIZARD_NAMESPACES } from './wizard-namespaces';

const here = path.dirname(new URL(import.meta.url).pathname);
/** The wizard's sources (not the cancel page's island, not tests) and the shared schemas whose messages it shows. */
const sources = [
  ...readdirSync(here)
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes('.test.') && !f.startsWith('cancel-'))
    .map((f) => path.join(here, f)),
  path.join(here, '../../lib/booking-schema.ts'),
];
const allKeys = new Set(Object.keys(dictionaries.de));

describe('the booking wizard’s translations', () => {
  it('every translation key its sources mention is in a namespace it ships', () => {
    const mentioned = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`]([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)['"`]/g)].map((m) => m[1]!).filter((k) => allKeys.has(k)),
    );
    expect(mentioned.length).toBeGreaterThan(30);
    expect(mentioned.filter((key) => !(WIZARD_NAMESPACES as readonly string[]).includes(key.split('.')[0]!))).toEqual([]);
  });

  it.each(['de', 'en'] as const)('the %s wrapper imports exactly those namespaces', (lang) => {
    const wrapper = readFileSync(path.join(here, `booking-wizard-${lang}.tsx`), 'utf8');
    expect(wrapper).toContain(`virtual:island-translations/${lang}/${WIZARD_NAMESPACES.join(',')}'`);
  });

  it('picks whole namespaces only', () => {
    const picked = pickNamespaces(dictionaries.de, WIZARD_NAMESPACES);
    expect(picked['booking.next']).toBe(dictionaries.de['booking.next']);
    expect(picked['toast.bookingSuccess']).toBe(dictionaries.de['toast.bookingSuccess']);
    expect(picked['install.banner.title']).toBeUndefined();
    expect(picked['nav.home']).toBeUndefined();
  });
});
