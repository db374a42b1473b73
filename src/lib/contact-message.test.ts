/** The contact form's phone: read with libphonenumber-js like every number of the site (src/lib/phone.ts), kept in E.164. */
import { describe, expect, it } from 'vitest';
import { contactMessageSchema } from './contact-message';

const message = { name: 'Erika Mustermann', email: 'erika@example.org', message: 'Guten Tag', language: 'de' as const };
const phoneOf = (phone: string) => contactMessageSchema.safeParse({ ...message, phone });

describe('contact message phone', () => {
  it.each([
    ['0211 1234567', '+492111234567'],
    ['+49 (0)171 2345678', '+491712345678'],
    ['+31 20 123 4567', '+31201234567'],
  ])('takes %s as %s', (typed, e164) => {
    const parsed = phoneOf(typed);
    expect(parsed.success && parsed.data.phone).toBe(e164);
  });

  it('is optional: empty is no phone', () => {
    const parsed = phoneOf('');
    expect(parsed.success && parsed.data.phone).toBeUndefined();
  });

  it.each(['0000000000', '0211-12', '+49 211 abc defg', '+99 123 456 789'])('refuses %s with contact.errors.phoneInvalid', (typed) => {
    const parsed = phoneOf(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['phone', 'contact.errors.phoneInvalid']]);
  });
});
