import { describe, expect, it } from 'vitest';
import { birthDateQuery, foldName, matcher, phoneDigits, phoneQuery, readings, referenceQuery, type SearchedBooking } from './patient-match.server';

const booking = (firstName: string, lastName: string, more: Partial<SearchedBooking> = {}): SearchedBooking => ({
  reference: 'S74V96',
  firstName,
  lastName,
  birthDate: '',
  phone: '',
  ...more,
});
const finds = (q: string, b: SearchedBooking) => matcher(q)(b);

describe('readings of a name', () => {
  it.each([
    ['Müller', ['muller', 'mueller', 'muller']],
    ['Mueller', ['mueller', 'mueller', 'muller']],
    ['Schäfer', ['schafer', 'schaefer', 'schafer']],
    ['Größe', ['grosse', 'groesse', 'grosse']],
    ['Straße', ['strasse', 'strasse', 'strasse']],
    ['Zoë', ['zoe', 'zoe', 'zo']],
    ['  ÖZDEMİR  ', ['ozdemir', 'oezdemir', 'ozdemir']],
    // Decomposed input (an umlaut as u + combining diaeresis) reads like the composed one.
    ['Mu\u0308ller', ['muller', 'mueller', 'muller']],
  ])('%s → %j', (name, expected) => {
    expect(readings(name)).toEqual(expected);
  });

  it('foldName is the plain reading', () => {
    expect(foldName('Jürgen Lüdenscheidt')).toBe('jurgen ludenscheidt');
  });
});

describe('names: ä/ae, ö/oe, ü/ue, ß/ss both ways', () => {
  it.each([
    ['Mueller', 'Müller'],
    ['Müller', 'Mueller'],
    ['muller', 'Müller'],
    ['muller', 'Mueller'],
    ['MÜLLER', 'müller'],
    ['Schaefer', 'Schäfer'],
    ['Schäfer', 'Schaefer'],
    ['Oezdemir', 'Özdemir'],
    ['Özdemir', 'Oezdemir'],
    ['Juergen', 'Jürgen'],
    ['Strasse', 'Straße'],
    ['Straße', 'Strasse'],
    ['Grösse', 'Groesse'],
    ['zoe', 'Zoë'],
  ])('%s finds %s', (q, last) => {
    expect(finds(q, booking('Anna', last))).toBe(true);
  });

  it('every word of the query, anywhere in the full name', () => {
    const b = booking('Jürgen', 'Müller-Lüdenscheidt');
    expect(finds('juergen luedensch', b)).toBe(true);
    expect(finds('mül jür', b)).toBe(true);
    expect(finds('jürgen schmidt', b)).toBe(false);
  });

  it('a fragment still finds the name it is part of', () => {
    expect(finds('el', booking('Manuel', 'Bauer'))).toBe(true);
    expect(finds('er', booking('Manuel', 'Bauer'))).toBe(true);
    expect(finds('uel', booking('Manuel', 'Bauer'))).toBe(true);
    expect(finds('efer', booking('Anna', 'Schaefer'))).toBe(true);
  });

  it('other names stay apart', () => {
    expect(finds('Müller', booking('Anna', 'Miller'))).toBe(false);
    expect(finds('Mueller', booking('Anna', 'Schmidt'))).toBe(false);
    expect(finds('Schäfer', booking('Anna', 'Schiefer'))).toBe(false);
  });
});

describe('phone numbers in any common spelling', () => {
  it.each([
    ['+49 211 5550123', '02115550123'],
    ['0049 211 5550123', '02115550123'],
    ['+49 (0)211 555-0123', '02115550123'],
    ['(0211) 555 01 23', '02115550123'],
    ['0211/5550123', '02115550123'],
    ['+43 1 234567', '00431234567'],
  ])('%s reads %s', (value, digits) => {
    expect(phoneDigits(value)).toBe(digits);
  });

  it.each(['0211 5550123', '+49 211 5550123', '0049-211-555-0123', '0211/555 01 23', '(0211) 5550123', '5550123', '211 555'])(
    '%s finds a patient stored as "+49 211 5550123" and as "0211 5550123"',
    (q) => {
      expect(finds(q, booking('Anna', 'Muster', { phone: '+49 211 5550123' }))).toBe(true);
      expect(finds(q, booking('Anna', 'Muster', { phone: '0211 5550123' }))).toBe(true);
    },
  );

  it('another number, too few digits or no stored number: no hit', () => {
    expect(finds('0211 5550124', booking('Anna', 'Muster', { phone: '0211 5550123' }))).toBe(false);
    expect(finds('0211 5550123', booking('Anna', 'Muster'))).toBe(false);
    expect(phoneQuery('0211')).toBeNull();
    expect(phoneQuery('Müller 0211')).toBeNull();
    // A date is a birth date, never a phone number.
    expect(phoneQuery('15.06.1985')).toBeNull();
  });
});

describe('booking references and birth dates', () => {
  it.each(['S74V96', 's74v96', 'S74 V96', 'S74-V96'])('%s finds its booking', (q) => {
    expect(referenceQuery(q)).toBe('S74V96');
    expect(finds(q, booking('Anna', 'Muster'))).toBe(true);
    expect(finds(q, booking('Anna', 'Muster', { reference: 'S74V97' }))).toBe(false);
  });

  it('a word that cannot be a reference (L, I, O, 0, 1 are not in the alphabet) is a name', () => {
    expect(referenceQuery('muller')).toBeNull();
    expect(referenceQuery('S74V9')).toBeNull();
  });

  it('a birth date in either form finds exactly that date', () => {
    expect(birthDateQuery('5.3.1971')).toBe('1971-03-05');
    expect(birthDateQuery('1971-03-05')).toBe('1971-03-05');
    expect(finds('05.03.1971', booking('Zoë', 'Q', { birthDate: '1971-03-05' }))).toBe(true);
    expect(finds('05.03.1971', booking('Zoë', 'Q', { birthDate: '1971-03-06' }))).toBe(false);
  });
});
