/**
 * MAIL_FROM and PRACTICE_EMAIL are each exactly one mailbox
 * (docs/decisions/019-mail-config-and-last-admin.md): `a@x, b@y` used to pass the production check and make every send
 * fail. In production anything else is 503 not-configured with a log line
 * naming the variable (every function: tests/integration/production-config.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from './env.server';

const production = {
  DATABASE_URL: 'postgres://u:p@db.example:5432/praxis',
  JWT_SECRET: 'j'.repeat(48),
  POSTMARK_SERVER_TOKEN: 'token',
  MAIL_FROM: 'Hausarztpraxis Düsseldorf <praxis@example.de>',
  PRACTICE_EMAIL: 'team@example.de',
  SITE_URL: 'https://www.praxis.example',
};

afterEach(() => vi.restoreAllMocks());

describe('MAIL_FROM and PRACTICE_EMAIL', () => {
  it.each([
    ['MAIL_FROM', 'Hausarztpraxis Düsseldorf <praxis@example.de>'],
    ['MAIL_FROM', '"Praxis Dr. Muster, Düsseldorf" <praxis@example.de>'],
    ['MAIL_FROM', 'praxis@example.de'],
    ['PRACTICE_EMAIL', 'team@example.de'],
    ['PRACTICE_EMAIL', 'Praxisteam <team@bücher.de>'],
  ])('%s = %j is one mailbox', (name, value) => {
    expect(readEnv({ ...production, [name]: value })[name as 'MAIL_FROM']).toBe(value);
  });

  it.each(['MAIL_FROM', 'PRACTICE_EMAIL'])('%s with two mailboxes, a group, a list or no address is not configured, naming the variable', (name) => {
    for (const value of ['a@example.de, b@example.de', 'a@example.de;b@example.de', 'Team: a@example.de, b@example.de;', 'Praxis', 'Praxis <>', 'a@example.de\nBcc: b@example.de']) {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      expect(() => readEnv({ ...production, [name]: value }), value).toThrow(expect.objectContaining({ code: 'not-configured' }));
      expect(log).toHaveBeenCalledWith(expect.stringContaining(name));
      log.mockRestore();
    }
  });

  it('outside production a bad value is a plain startup error naming the variable', () => {
    expect(() => readEnv({ APP_ENV: 'development', MAIL_FROM: 'a@example.de, b@example.de' })).toThrow(/MAIL_FROM/);
  });
});
