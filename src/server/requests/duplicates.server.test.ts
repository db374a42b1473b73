import { afterEach, describe, expect, it, vi } from 'vitest';
import { patientRequestSchema, type PatientRequest } from '../../lib/request-schema';
import { duplicateKeyOf } from './duplicates.server';

const SECRET = 'duplicate-key-test-secret';
const body = {
  kind: 'prescription',
  first_name: 'Erika',
  last_name: 'Mustermann',
  birth_date: '1964-08-12',
  email: 'Erika@Example.org ',
  consent: true,
  language: 'de',
  insurance: 'statutory',
  delivery: 'pickup',
  medications: [{ name: 'Ramipril', strength: '5 mg' }],
};
const parsed = (value: Record<string, unknown>) => patientRequestSchema.parse(value) as PatientRequest;

afterEach(() => vi.restoreAllMocks());

describe('a request’s duplicate key', () => {
  it('is the same for the same request whatever the order of its fields, and the email as one recipient', () => {
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    expect(duplicateKeyOf(parsed(reversed), SECRET)).toBe(duplicateKeyOf(parsed(body), SECRET));
    expect(duplicateKeyOf(parsed({ ...body, email: 'erika@example.org' }), SECRET)).toBe(duplicateKeyOf(parsed(body), SECRET));
    expect(duplicateKeyOf(parsed({ ...body, medications: [{ name: 'Ramipril', strength: '10 mg' }] }), SECRET)).not.toBe(duplicateKeyOf(parsed(body), SECRET));
  });

  it('orders the fields without the locale: the same key on every instance, whatever its language settings', () => {
    const key = duplicateKeyOf(parsed(body), SECRET);
    vi.spyOn(String.prototype, 'localeCompare').mockImplementation(() => {
      throw new Error('locale-dependent comparison');
    });
    expect(duplicateKeyOf(parsed(body), SECRET)).toBe(key);
  });
});
