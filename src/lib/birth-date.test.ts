/**
 * Birth dates as patients type them (docs/decisions/029): German DD.MM.YYYY;
 * English DD/MM/YYYY, DD.MM.YYYY and yyyy-mm-dd; an impossible day or a
 * future date is refused naming what is wrong, in the form and the API alike.
 */
import { describe, expect, it } from 'vitest';
import { berlinToday, addDaysToDate } from './berlin-time';
import { bookingRequestSchema, patientFormSchemaFor } from './booking-request-schema';
import { birthDateProblem, typedDateToIso } from './booking-schema';

const patient = { first_name: 'Anna', last_name: 'Muster', phone: '+49 211 1234567', email: 'anna@example.org', consent: true as const };
const birthErrors = (lang: 'de' | 'en', birth_date: string) => {
  const result = patientFormSchemaFor(lang).safeParse({ ...patient, birth_date });
  return result.success ? [] : result.error.issues.filter((i) => i.path[0] === 'birth_date').map((i) => i.message);
};

describe('typed birth dates', () => {
  it.each([
    ['de', '15.03.1990', '1990-03-15'],
    ['de', ' 15.03.1990 ', '1990-03-15'],
    ['de', '15/03/1990', null],
    ['de', '1990-03-15', null],
    ['en', '15/03/1990', '1990-03-15'],
    ['en', '15.03.1990', '1990-03-15'],
    ['en', '1990-03-15', '1990-03-15'],
    ['en', '03/15/1990', '1990-15-03'],
    ['en', '15-03-1990', null],
    ['en', '15/3/90', null],
  ] as const)('%s %s → %s', (lang, typed, iso) => {
    expect(typedDateToIso(typed, lang)).toBe(iso);
  });

  it.each(['de', 'en'] as const)('%s: each accepted shape passes the form', (lang) => {
    const shapes = lang === 'de' ? ['15.03.1990'] : ['15/03/1990', '15.03.1990', '1990-03-15'];
    for (const shape of shapes) expect(birthErrors(lang, shape), shape).toEqual([]);
  });

  it.each(['de', 'en'] as const)('%s: 31 February is impossible, a future date is named as such, a wrong shape names the format', (lang) => {
    const future = addDaysToDate(berlinToday(), 1).split('-').reverse().join(lang === 'de' ? '.' : '/');
    expect(birthErrors(lang, lang === 'de' ? '31.02.1990' : '31/02/1990')).toEqual(['bookingForm.errors.birthDateImpossible']);
    expect(birthErrors(lang, future)).toEqual(['bookingForm.errors.birthDateFuture']);
    expect(birthErrors(lang, '1990')).toEqual(['bookingForm.errors.birthDateFormat']);
    // American month-first is not a day-first date: 03/15/1990 has no month 15.
    if (lang === 'en') expect(birthErrors(lang, '03/15/1990')).toEqual(['bookingForm.errors.birthDateImpossible']);
  });

  it('today is not a birth date yet; 130 years back is the limit', () => {
    expect(birthDateProblem('2030-01-07', '2030-01-07')).toBe('bookingForm.errors.birthDateFuture');
    expect(birthDateProblem('2030-01-06', '2030-01-07')).toBeNull();
    expect(birthDateProblem('1900-01-07', '2030-01-07')).toBeNull();
    expect(birthDateProblem('1900-01-06', '2030-01-07')).toBe('bookingForm.errors.birthDateInvalid');
  });

  it('the API takes yyyy-MM-dd only and names the same problems', () => {
    const request = { ...patient, appointment_type_id: '11111111-1111-4111-8111-111111111111', appointment_date: '2030-01-08', appointment_time: '09:00', language: 'en' };
    const errors = (birth_date: string) => {
      const r = bookingRequestSchema.safeParse({ ...request, birth_date });
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(errors('1990-02-31')).toEqual(['bookingForm.errors.birthDateImpossible']);
    expect(errors('15/03/1990')).toEqual(['bookingForm.errors.birthDateFormat']);
    expect(errors('1990-03-15')).toEqual([]);
  });
});
