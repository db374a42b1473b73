import { describe, expect, it } from 'vitest';
import { foldWord, namedDetails, namedKinds, type DetailTerm } from './message-details';

const prescription: DetailTerm[] = [
  { kind: 'medication', text: 'Ramipril 5 mg' },
  { kind: 'medication', text: 'L-Thyroxin 75 µg' },
  { kind: 'medication', text: 'ASS 100' },
];
const referral: DetailTerm[] = [
  { kind: 'specialty', text: 'Kardiologie' },
  { kind: 'reason', text: 'Herzrasen seit drei Wochen, bitte Überweisung für die nächste Woche' },
];
const hno: DetailTerm[] = [
  { kind: 'specialty', text: 'HNO' },
  { kind: 'reason', text: 'Schwindel' },
];
const callback: DetailTerm[] = [{ kind: 'topic', text: 'Blutwerte vom letzten Labor besprechen, Rückenschmerzen' }];
const booking: DetailTerm[] = [
  { kind: 'type', text: 'Blutabnahme' },
  { kind: 'type', text: 'Blood test' },
];
const checkUp: DetailTerm[] = [{ kind: 'type', text: 'Gesundheits-Check-up' }];
const umlautType: DetailTerm[] = [{ kind: 'type', text: 'Gefäßuntersuchung' }];
const accent: DetailTerm[] = [{ kind: 'medication', text: 'Ibuprofen' }, { kind: 'reason', text: 'Ekzem am Knöchel' }];

describe.each([
  // medication by name, whatever the case; never by its strength
  { name: 'a medication by name', message: 'Ihr Rezept für Ramipril liegt bereit.', terms: prescription, kinds: ['medication'], words: ['Ramipril'] },
  { name: 'a medication in upper case', message: 'RAMIPRIL ist abholbereit', terms: prescription, kinds: ['medication'], words: ['Ramipril'] },
  { name: 'a hyphenated medication name', message: 'Das L-Thyroxin-Rezept ist auf der Karte.', terms: prescription, kinds: ['medication'], words: ['Thyroxin'] },
  { name: 'a three-letter medication', message: 'ASS bekommen Sie ohne Rezept.', terms: prescription, kinds: ['medication'], words: ['ASS'] },
  { name: 'only the strength', message: 'Bitte 5 mg statt 100 nehmen, 75 µg bleiben.', terms: prescription, kinds: [], words: [] },
  { name: 'a word that only contains the name', message: 'Die Ramiprilpackung ist leer.', terms: prescription, kinds: [], words: [] },
  { name: 'everyday words of a request', message: 'Ihr Folgerezept liegt ab morgen am Empfang bereit. Viele Grüße', terms: prescription, kinds: [], words: [] },
  // specialty and reason, inflected
  { name: 'a specialty as its doctor', message: 'Ihre Überweisung zum Kardiologen ist fertig.', terms: referral, kinds: ['specialty'], words: ['Kardiologie'] },
  { name: 'a reason word', message: 'Wegen Herzrasen bitte sofort kommen.', terms: referral, kinds: ['reason'], words: ['Herzrasen'] },
  { name: 'only the reason’s everyday words', message: 'Die Überweisung liegt für nächste Woche bereit, bitte abholen.', terms: referral, kinds: [], words: [] },
  { name: 'a three-letter specialty', message: 'Überweisung zum hno liegt bereit', terms: hno, kinds: ['specialty'], words: ['HNO'] },
  { name: 'both specialty and reason', message: 'HNO wegen Schwindel: bitte vorbeikommen', terms: hno, kinds: ['reason', 'specialty'], words: ['HNO', 'Schwindel'] },
  // topic, umlauts both ways
  { name: 'a topic word with ue for ü', message: 'Wegen Ihrer Rueckenschmerzen rufen wir an.', terms: callback, kinds: ['topic'], words: ['Rückenschmerzen'] },
  { name: 'a topic word in its singular', message: 'Der Rückenschmerz wird besprochen.', terms: callback, kinds: ['topic'], words: ['Rückenschmerzen'] },
  { name: 'a topic word inflected', message: 'Ihre Blutwerte sind da.', terms: callback, kinds: ['topic'], words: ['Blutwerte'] },
  { name: 'a short topic word is not enough', message: 'Wir rufen vom Empfang an.', terms: callback, kinds: [], words: [] },
  // a booking's type
  { name: 'the type’s name', message: 'Ihre Blutabnahme muss leider ausfallen.', terms: booking, kinds: ['type'], words: ['Blutabnahme'] },
  { name: 'the type’s name in the plural', message: 'Alle Blutabnahmen am Montag fallen aus.', terms: booking, kinds: ['type'], words: ['Blutabnahme'] },
  { name: 'the type’s English name', message: 'Your blood test has to be moved.', terms: booking, kinds: ['type'], words: ['Blood'] },
  { name: 'no type word', message: 'Wir müssen Ihren Termin leider verschieben.', terms: booking, kinds: [], words: [] },
  { name: 'a type word split by hyphens', message: 'Ihr Gesundheits-Check fällt aus.', terms: checkUp, kinds: ['type'], words: ['Gesundheits', 'Check'] },
  { name: 'ß written ss', message: 'Die Gefaessuntersuchung ist verschoben.', terms: umlautType, kinds: ['type'], words: ['Gefäßuntersuchung'] },
  // accents
  { name: 'an accent dropped', message: 'Ibuprofén bitte absetzen', terms: accent, kinds: ['medication'], words: ['Ibuprofen'] },
  { name: 'ö written oe', message: 'Das Ekzem am Knoechel sehen wir uns an.', terms: accent, kinds: ['reason'], words: ['Ekzem', 'Knöchel'] },
  { name: 'an empty message', message: '', terms: prescription, kinds: [], words: [] },
])('a message: $name', ({ message, terms, kinds, words }) => {
  it(`names ${kinds.length ? kinds.join(', ') : 'nothing'}`, () => {
    expect(namedKinds(message, terms)).toEqual(kinds);
    expect(namedDetails(message, terms).map((d) => d.word)).toEqual(words);
  });
});

describe('foldWord', () => {
  it.each([
    ['Müller', 'mueller'],
    ['MUELLER', 'mueller'],
    ['Straße', 'strasse'],
    ['Mu\u0308ller', 'mueller'],
    ['Éclair', 'eclair'],
    ['ÖL', 'oel'],
  ])('%s → %s', (word, folded) => expect(foldWord(word)).toBe(folded));
});
