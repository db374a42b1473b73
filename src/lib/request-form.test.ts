import { describe, expect, it } from 'vitest';
import { formFieldOf, requestFromForm } from './request-form';

describe('the request form as posted', () => {
  it('reads a prescription: boxes, the birth date as typed in the page’s language, the filled medication rows with their form rows', () => {
    const { request, medicationRows } = requestFromForm(
      {
        kind: 'prescription',
        first_name: 'Erika',
        last_name: 'Mustermann',
        birth_date: '12/08/1964',
        email: 'erika@example.org',
        phone: '',
        language: 'en',
        consent: 'on',
        insurance: 'statutory',
        delivery: 'card',
        card_read_this_quarter: 'on',
        'medications.0.name': '',
        'medications.1.name': 'Ramipril',
        'medications.1.strength': '5 mg',
        'medications.3.pack': 'N1',
        specialty: 'ignored',
      },
      'en',
    );
    expect(request).toMatchObject({
      kind: 'prescription',
      birth_date: '1964-08-12',
      phone: undefined,
      consent: true,
      card_read_this_quarter: true,
      medications: [{ name: 'Ramipril', strength: '5 mg' }, { name: '', pack: 'N1' }],
    });
    expect(request).not.toHaveProperty('specialty');
    expect(medicationRows).toEqual([1, 3]);
    expect(formFieldOf('medications.1.name', medicationRows)).toBe('medications.3.name');
    expect(formFieldOf('medications', medicationRows)).toBe('medications');
    expect(formFieldOf('email', medicationRows)).toBe('email');
  });

  it('leaves a birth date of no known shape as typed, an unticked box false', () => {
    const { request } = requestFromForm({ kind: 'referral', birth_date: '1964-13', consent: '' }, 'de');
    expect(request).toMatchObject({ birth_date: '1964-13', consent: false, specialty: '', reason: '' });
  });
});
