import { describe, expect, it } from 'vitest';
import { emailDomainHint } from './email-hint';

describe('emailDomainHint', () => {
  it.each([
    ['erika@gmial.com', 'erika@gmail.com'],
    ['erika@gmai.com', 'erika@gmail.com'],
    ['erika@gmail.con', 'erika@gmail.com'],
    ['hans@gmx.dee', 'hans@gmx.de'],
    ['hans@gxm.de', 'hans@gmx.de'],
    ['hans@web.ed', 'hans@web.de'],
    ['hans@wbe.de', 'hans@web.de'],
    ['hans@t-onlin.de', 'hans@t-online.de'],
    ['hans@tonline.de', 'hans@t-online.de'],
    ['zoe@outlok.com', 'zoe@outlook.com'],
    ['zoe@hotmial.com', 'zoe@hotmail.com'],
    ['zoe@icloud.co', 'zoe@icloud.com'],
    ['zoe@yaho.de', 'zoe@yahoo.de'],
  ])('%s → %s', (typed, suggested) => {
    expect(emailDomainHint(typed)).toBe(suggested);
  });

  it.each(['erika@gmail.com', 'hans@gmx.de', 'hans@web.de', 'praxis@example.org', 'a@hausarzt-duesseldorf.de', 'not an address', 'a@b', '', 'erika@mail.invalid', 'erika@mail.de', 'erika@gmial.invalid'])(
    'no hint for %j',
    (typed) => {
      expect(emailDomainHint(typed)).toBeNull();
    },
  );
});
