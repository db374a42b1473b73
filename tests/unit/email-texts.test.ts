/** The English email read "thank you" in lower case at the start of a sentence. */
import { describe, expect, it } from 'vitest';
import en from '../../src/i18n/en.json' with { type: 'json' };

describe('email texts', () => {
  // German continues the salutation's sentence ("Guten Tag …,\nvielen Dank …"), English does not.
  it('every English email sentence starts with a capital letter', () => {
    const lower = Object.entries(en)
      .filter(([key]) => key.startsWith('email.'))
      .filter(([, text]) => /^\p{Ll}/u.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(lower).toEqual([]);
  });
});
