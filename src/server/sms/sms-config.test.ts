/**
 * Whether SMS is offered, and by what (docs/decisions/043-sms-second-channel.md):
 * seven.io with SMS_API_KEY; the local stand-in outside production without
 * one; in production without one, none (the forms hide the choice and the
 * notices go on the call list). SMS_SENDER is letters and digits, at most 11.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRODUCTION_VARIABLES } from '../../../tests/helpers/env';
import { readEnv } from '../env.server';
import { smsNumberOf } from './notices.server';
import { createSmsSender, DEFAULT_SMS_MONTHLY_LIMIT, smsConfigured, smsMonthlyLimit, smsOffered } from './sms.server';

const production = { ...PRODUCTION_VARIABLES, APP_ENV: 'production' };

afterEach(() => {
  vi.unstubAllEnvs();
});

const stub = (values: Record<string, string>) => {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
};

describe('SMS configuration', () => {
  it('production without SMS_API_KEY offers no SMS: no sender, no number to send to', () => {
    stub(production);
    expect(smsConfigured()).toBe(false);
    expect(smsOffered()).toBe(false);
    expect(createSmsSender()).toBeNull();
    expect(smsNumberOf({ phone: '+491712345678', sms: true })).toBeNull();
  });

  it('production with SMS_API_KEY sends through seven.io', () => {
    stub({ ...production, SMS_API_KEY: 'key', SMS_SENDER: 'Praxis' });
    expect(smsConfigured()).toBe(true);
    expect(createSmsSender()?.kind).toBe('seven');
    expect(smsNumberOf({ phone: '+491712345678', sms: true })).toBe('+491712345678');
    expect(smsNumberOf({ phone: '+491712345678', sms: false })).toBeNull();
  });

  it('outside production without a key the local stand-in writes .sms.txt files', () => {
    stub({ APP_ENV: 'development' });
    expect(createSmsSender()?.kind).toBe('outbox');
    expect(smsMonthlyLimit()).toBe(DEFAULT_SMS_MONTHLY_LIMIT);
  });

  it.each(['Praxis Dr. M', 'Hausarztpraxis', 'Praxis-1', ''])('SMS_SENDER %j is refused (letters and digits, at most 11)', (sender) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    stub({ ...production, SMS_API_KEY: 'key', SMS_SENDER: sender });
    if (sender === '') {
      // Empty counts as unset: the default sender.
      expect(readEnv().SMS_SENDER).toBeUndefined();
    } else {
      expect(() => readEnv()).toThrow(expect.objectContaining({ code: 'not-configured' }));
      expect(log.mock.calls.at(-1)![0]).toContain('SMS_SENDER');
    }
    log.mockRestore();
  });

  it('SMS_MONTHLY_LIMIT is a whole number', () => {
    stub({ APP_ENV: 'development', SMS_MONTHLY_LIMIT: '50' });
    expect(smsMonthlyLimit()).toBe(50);
  });
});
