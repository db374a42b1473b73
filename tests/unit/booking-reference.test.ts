/** The database's reference alphabet and the form the site checks are one rule. */
import { describe, expect, it } from 'vitest';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../../db/booking-reference';
import { REFERENCE_PATTERN } from '../../src/lib/booking-reference';

describe('booking references', () => {
  it('the pattern accepts every character of the alphabet and no other digit or capital', () => {
    for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      expect(REFERENCE_PATTERN.test(c.repeat(REFERENCE_LENGTH)), c).toBe(REFERENCE_ALPHABET.includes(c));
    }
  });

  it('the pattern asks for exactly the database length', () => {
    expect(REFERENCE_PATTERN.test('A'.repeat(REFERENCE_LENGTH))).toBe(true);
    expect(REFERENCE_PATTERN.test('A'.repeat(REFERENCE_LENGTH - 1))).toBe(false);
    expect(REFERENCE_PATTERN.test('A'.repeat(REFERENCE_LENGTH + 1))).toBe(false);
  });
});
