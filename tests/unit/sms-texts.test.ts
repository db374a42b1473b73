/**
 * Every SMS text (docs/decisions/043-sms-second-channel.md), in both
 * languages, with the longest values the site allows (a practice name of
 * 120 characters, a phone of 40, a staff message of 500 with characters
 * outside GSM-7, the longest weekdays, the test site's address): GSM-7 only,
 * at most 306 characters (two parts) once the short link is in, and never a
 * type name, diagnosis, medication, reason or the patient's name, whatever
 * the notice they come from carries.
 */
import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { gsmLength, isGsm7, partsOf, SMS_MAX_CHARACTERS, toGsm7 } from '../../src/server/sms/gsm.server';
import { confirmationSms, noticeSms, offerSms, reminderSms, requestStatusSms } from '../../src/server/sms/notices.server';
import { LINK_PLACEHOLDER, shortLinkLength, smsTextFor, withLink, type SmsNotice } from '../../src/server/sms/texts.server';
import type { ContactSecret } from '../../src/server/appointment-contact/seal.server';

const SITE = 'https://praxis.example';
const LONGEST = { name: `Gemeinschaftspraxis für Allgemeinmedizin ${'Ä'.repeat(79)}`, phone: `+49 (0) 211 ${'9'.repeat(28)}` };
// Wednesday 29 September 2027: the longest English weekday abbreviation and month.
const DATE = '2027-09-29';
const SECRETS = ['Diabetes-Sprechstunde', 'Metformin', 'Insulin', 'Mustermann', 'Erika', 'Überweisung Kardiologie', 'Brustschmerz'];
const MESSAGE = `Liebe Frau Mustermann, wegen Diabetes-Sprechstunde „Metformin“ – bitte 😀 ${'sehr lange Nachricht '.repeat(30)}`.slice(0, 500);

const contact = (language: 'de' | 'en'): ContactSecret => ({
  email: '',
  firstName: 'Erika',
  lastName: 'Mustermann',
  language,
  token: 'T'.repeat(43),
  birthDate: '1964-08-12',
  phone: '+491712345678',
  sms: true,
});

const notices: Array<[string, SmsNotice]> = [
  ['phone booking confirmation', { kind: 'confirmation', date: DATE, time: '18:40', link: false }],
  ['confirmation (fallback with link)', { kind: 'confirmation', date: DATE, time: '18:40', link: true }],
  ['reminder', { kind: 'reminder', date: DATE, time: '18:40', link: true }],
  ['reminder without link', { kind: 'reminder', date: DATE, time: '18:40', link: false }],
  ['practice cancellation', { kind: 'cancelled-by-practice', date: DATE, time: '18:40', message: MESSAGE }],
  ['practice move', { kind: 'moved-by-practice', date: DATE, time: '18:40', old: { date: '2027-09-30', time: '08:20' }, message: MESSAGE, link: true }],
  ['practice move without link', { kind: 'moved-by-practice', date: DATE, time: '18:40', old: { date: '2027-09-30', time: '08:20' }, message: MESSAGE, link: false }],
  ['own cancellation', { kind: 'cancelled', date: DATE, time: '18:40' }],
  ['own move', { kind: 'moved', date: DATE, time: '18:40' }],
  ['waitlist offer', { kind: 'offer', date: DATE, time: '18:40' }],
  ['request done', { kind: 'request-done', reference: 'Q2W3E4' }],
  ['request declined', { kind: 'request-declined', reference: 'Q2W3E4' }],
];

describe.each(['de', 'en'] as const)('SMS texts in %s', (lang) => {
  it.each(notices)('%s: GSM-7, at most 306 characters with the longest values and the link, nothing private', (_name, notice) => {
    const text = smsTextFor(notice, lang, SITE, LONGEST);
    const sent = withLink(text, `${SITE}/k/${'A'.repeat(12)}`);
    expect(isGsm7(sent)).toBe(true);
    expect(gsmLength(sent)).toBeLessThanOrEqual(SMS_MAX_CHARACTERS);
    expect(partsOf(sent)).toBeLessThanOrEqual(2);
    expect(sent).not.toContain(LINK_PLACEHOLDER);
    for (const secret of SECRETS) {
      // The practice's own message may name what staff typed: it is theirs to word (cut to fit), never a field of the patient's.
      if (notice.kind === 'cancelled-by-practice' || notice.kind === 'moved-by-practice') continue;
      expect(sent).not.toContain(secret);
    }
  });

  it('a practice message is cut to fit, never dropped while room is left, and only the part that fits goes', () => {
    const text = smsTextFor({ kind: 'cancelled-by-practice', date: DATE, time: '09:00', message: MESSAGE }, lang, SITE, LONGEST);
    expect(text).toContain(lang === 'de' ? 'Nachricht der Praxis: ' : 'Message from the practice: ');
    expect(text).toContain('...');
    expect(gsmLength(text)).toBeLessThanOrEqual(SMS_MAX_CHARACTERS);
    const short = smsTextFor({ kind: 'cancelled-by-practice', date: DATE, time: '09:00', message: 'Die Ärztin ist krank.' }, lang, SITE);
    expect(short).toContain('Die Ärztin ist krank.');
  });
});

describe('what the notice builders hand to the texts', () => {
  it('never a type, diagnosis, medication, reason or name, whatever the email\'s input carries', () => {
    for (const lang of ['de', 'en'] as const) {
      const input = {
        contact: contact(lang),
        bookingId: '00000000-0000-4000-8000-000000000001',
        reference: 'ABC234',
        type: { name: 'Diabetes-Sprechstunde', nameEn: 'Diabetes clinic', slotDurationMinutes: 20 },
        date: DATE,
        time: '09:00',
        sequence: 1,
      };
      const plans = [
        noticeSms({ ...input, kind: 'cancelled-by-practice' }),
        noticeSms({ ...input, kind: 'moved-by-practice', old: { date: '2027-09-30', time: '08:20' } }),
        noticeSms({ ...input, kind: 'cancelled' }),
        noticeSms({ ...input, kind: 'moved' }),
        confirmationSms(input),
        reminderSms(input),
        offerSms({ phone: '+491712345678', sms: true, language: lang, offerId: input.bookingId, token: 'T'.repeat(43), date: DATE, time: '09:00' }),
        requestStatusSms({ phone: '+491712345678', sms: true, language: lang, requestId: input.bookingId, reference: 'Q2W3E4', status: 'declined', token: 'T'.repeat(43), expiresAt: new Date() }),
      ];
      for (const plan of plans) {
        expect(plan).not.toBeNull();
        const text = smsTextFor(plan!.notice, lang, SITE);
        for (const secret of [...SECRETS, 'Diabetes clinic', 'T'.repeat(43), '1964']) expect(text).not.toContain(secret);
        expect(JSON.stringify(plan!.notice)).not.toMatch(/Diabetes|Mustermann|Erika/);
      }
    }
  });

  it('no consent or no mobile number, no SMS', () => {
    const input = { contact: { ...contact('de'), sms: false }, bookingId: 'b', date: DATE, time: '09:00' };
    expect(confirmationSms(input)).toBeNull();
    expect(noticeSms({ ...input, kind: 'cancelled-by-practice' })).toBeNull();
    expect(offerSms({ phone: '+491712345678', sms: false, language: 'de', offerId: 'o', token: 't', date: DATE, time: '09:00' })).toBeNull();
    expect(confirmationSms({ ...input, contact: { ...contact('de'), phone: '0171 2345678' } })).toBeNull();
  });
});

describe('GSM-7 and the short link', () => {
  it('replaces look-alikes and drops what GSM-7 cannot carry', () => {
    expect(toGsm7('„Bitte“ – morgen… 😀 Grüße')).toBe('"Bitte" - morgen... Grüße');
  });

  it.each([
    ['a'.repeat(160), 1],
    ['a'.repeat(161), 2],
    ['a'.repeat(306), 2],
    ['a'.repeat(307), 3],
    [`${'a'.repeat(152)}€${'a'.repeat(10)}`, 2],
    [`${'€'.repeat(80)}`, 1],
    [`${'€'.repeat(81)}`, 2],
  ])('parts of a %#th text as the library counts them', (text, parts) => {
    expect(partsOf(text)).toBe(parts);
    expect(new SegmentedMessage(text, 'GSM-7').segmentsCount).toBe(parts);
    expect(gsmLength(text)).toBe(new SegmentedMessage(text, 'GSM-7').messageSize / 7);
  });

  it('a short link on the test site is at most 40 characters', () => {
    expect(shortLinkLength(SITE)).toBeLessThanOrEqual(40);
  });
});
