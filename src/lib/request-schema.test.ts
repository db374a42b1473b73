import { describe, expect, it, vi, afterEach } from 'vitest';
import { callbackDays } from './callback-days';
import { patientRequestSchema } from './request-schema';

const person = { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', email: 'erika@example.org', consent: true, language: 'de' };

describe('call-back days: the next five working days after today (Berlin)', () => {
  it.each([
    ['a Monday', '2030-01-07', ['2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11', '2030-01-14']],
    ['a Friday', '2030-01-11', ['2030-01-14', '2030-01-15', '2030-01-16', '2030-01-17', '2030-01-18']],
    ['a Saturday', '2030-01-12', ['2030-01-14', '2030-01-15', '2030-01-16', '2030-01-17', '2030-01-18']],
    ['New Year’s Eve', '2030-12-31', ['2031-01-01', '2031-01-02', '2031-01-03', '2031-01-06', '2031-01-07']],
    ['the last of February in a leap year', '2028-02-29', ['2028-03-01', '2028-03-02', '2028-03-03', '2028-03-06', '2028-03-07']],
    ['the Saturday before summer time', '2030-03-30', ['2030-04-01', '2030-04-02', '2030-04-03', '2030-04-04', '2030-04-05']],
  ])('from %s', (_, today, days) => {
    expect(callbackDays(today)).toEqual(days);
  });
});

describe('the request schema', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the chosen kind’s fields and drops the others’ (a form posts every section)', () => {
    const parsed = patientRequestSchema.parse({ ...person, kind: 'referral', specialty: ' Orthopädie ', reason: 'Knie', topic: 'x', medications: [{ name: 'y' }] });
    expect(parsed).toEqual({ ...person, kind: 'referral', specialty: 'Orthopädie', reason: 'Knie' });
  });

  it('names every problem of a prescription at once, the card for private insurance among them', () => {
    const result = patientRequestSchema.safeParse({ ...person, first_name: '', kind: 'prescription', insurance: 'private', delivery: 'card', medications: [] });
    expect(result.success).toBe(false);
    const issues = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(issues).toEqual({
      first_name: 'requests.errors.firstName',
      medications: 'requests.errors.medicationsRequired',
      delivery: 'requests.errors.cardNeedsStatutory',
    });
  });

  it('takes five medications, not six', () => {
    const base = { ...person, kind: 'prescription', insurance: 'statutory', delivery: 'pickup' };
    const meds = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Mittel ${i}` }));
    expect(patientRequestSchema.safeParse({ ...base, medications: meds(5) }).success).toBe(true);
    expect(patientRequestSchema.safeParse({ ...base, medications: meds(6) }).error?.issues.map((i) => i.message)).toEqual(['requests.errors.medicationsTooMany']);
  });

  it('takes a call-back only on one of the next five working days, by Berlin’s today', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Friday 11 January 2030, 23:30 in Berlin (22:30 UTC): Berlin's today is still the Friday.
    vi.setSystemTime(new Date('2030-01-11T22:30:00Z'));
    const callback = (date: string) => patientRequestSchema.safeParse({ ...person, kind: 'callback', phone: '0211 5550123', callback_date: date, daypart: 'morning', topic: 'Werte' });
    expect(callback('2030-01-14').success).toBe(true);
    expect(callback('2030-01-18').success).toBe(true);
    expect(callback('2030-01-11').success).toBe(false);
    expect(callback('2030-01-19').success).toBe(false);
    expect(callback('2030-02-30').success).toBe(false);
  });
});
