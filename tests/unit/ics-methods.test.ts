/**
 * RFC 5546 (iTIP) for the .ics of every patient email (docs/decisions/029):
 * the confirmation and every move are METHOD:REQUEST, a cancellation is
 * METHOD:CANCEL, each with the properties §3.2.2 and §3.2.5 require, read
 * back with a real iCalendar parser (ical.js) from the .eml the outbox
 * writes; the email's text/calendar part names the same method.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { buildIcs } from '../../src/lib/ics';
import { practice } from '../../src/lib/practice';
import { patientConfirmation } from '../../src/server/email/messages/booking.server';
import type { EmailMessage } from '../../src/server/email/port.server';
import { formatEml } from '../../src/server/email/outbox.server';
import { patientNotice, type NoticeKind } from '../../src/server/email/messages/patient-notice.server';
import { parseEml } from '../helpers/eml';
import { calendarPartMethods } from '../helpers/ics';

const SITE = 'https://praxis.example';
const BOOKING_ID = '00000000-0000-4000-8000-000000000001';
const type = { name: 'Check-up', nameEn: 'Check-up (EN)', slotDurationMinutes: 20, priceCents: null };
const contact = (language: 'de' | 'en') => ({ email: 'erika@example.org', firstName: 'Erika', lastName: 'Mustermann', language, token: 'x'.repeat(43), birthDate: '1964-08-12', phone: '+49 211 5550123' });

/** A calendar's VCALENDAR and its one VEVENT, as ical.js reads them. */
async function calendarOf(message: EmailMessage) {
  const raw = await formatEml(message, 'Praxis <praxis@example.org>');
  const eml = await parseEml(raw);
  const files = eml.attachments.filter((a) => a.contentType === 'text/calendar');
  expect(files).toHaveLength(1);
  const calendar = new ICAL.Component(ICAL.parse(files[0]!.content));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return { calendar, event: events[0]!, partMethods: await calendarPartMethods(raw) };
}

const count = (c: ICAL.Component, name: string) => c.getAllProperties(name).length;

/** The properties both methods require exactly once (VCALENDAR §3.2.2/§3.2.5 and VEVENT). */
function expectCommon(calendar: ICAL.Component, event: ICAL.Component, method: string) {
  expect(calendar.getFirstPropertyValue('method')).toBe(method);
  expect(count(calendar, 'method')).toBe(1);
  expect(count(calendar, 'prodid')).toBe(1);
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  for (const name of ['dtstamp', 'organizer', 'uid', 'sequence']) expect(count(event, name), name).toBe(1);
  expect(event.getFirstPropertyValue('uid')).toBe(`${BOOKING_ID}@praxis.example`);
  expect(event.getFirstPropertyValue('organizer')).toBe(`mailto:${practice.email}`);
  const attendees = event.getAllProperties('attendee');
  expect(attendees).toHaveLength(1);
  expect(attendees[0]!.getFirstValue()).toBe('mailto:erika@example.org');
  expect(attendees[0]!.getParameter('rsvp')).toBe('FALSE');
  expect(attendees[0]!.getParameter('cn')).toBe('Erika Mustermann');
  // A DTSTART in Europe/Berlin comes with that VTIMEZONE (RFC 5546 §3.2: VTIMEZONE when a TZID is used).
  const tz = calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
  expect(tz).toEqual(['Europe/Berlin']);
}

/** REQUEST (§3.2.2): ATTENDEE 1+, DTSTAMP, DTSTART, ORGANIZER, SUMMARY, UID, SEQUENCE; STATUS if any not CANCELLED. */
function expectRequest(calendar: ICAL.Component, event: ICAL.Component) {
  expectCommon(calendar, event, 'REQUEST');
  expect(count(event, 'dtstart')).toBe(1);
  expect(count(event, 'summary')).toBe(1);
  expect(count(event, 'dtend') + count(event, 'duration')).toBeLessThanOrEqual(1);
  expect(['TENTATIVE', 'CONFIRMED']).toContain(event.getFirstPropertyValue('status'));
}

/** CANCEL (§3.2.5): ATTENDEE (all of them), DTSTAMP, ORGANIZER, SEQUENCE, UID, STATUS:CANCELLED for the whole event. */
function expectCancel(calendar: ICAL.Component, event: ICAL.Component) {
  expectCommon(calendar, event, 'CANCEL');
  expect(count(event, 'status')).toBe(1);
  expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
}

describe.each(['de', 'en'] as const)('the .ics of the patient emails (%s)', (lang) => {
  it('confirmation: METHOD:REQUEST, SEQUENCE 0, the practice organizes, the patient attends without RSVP; the part says method=REQUEST', async () => {
    const message = patientConfirmation(
      {
        bookingId: BOOKING_ID,
        token: 'x'.repeat(43),
        reference: 'K7M2QX',
        type,
        date: '2030-03-05',
        time: '10:40',
        patient: { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1980-01-02', phone: '0211 1', email: 'erika@example.org' },
        language: lang,
      },
      SITE,
    );
    const { calendar, event, partMethods } = await calendarOf(message);
    expectRequest(calendar, event);
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(partMethods).toEqual(['REQUEST']);
  });

  it.each([
    ['moved', 'REQUEST'],
    ['moved-by-practice', 'REQUEST'],
    ['cancelled', 'CANCEL'],
    ['cancelled-by-practice', 'CANCEL'],
  ] as Array<[NoticeKind, 'REQUEST' | 'CANCEL']>)('%s: METHOD:%s with the same UID and a higher SEQUENCE; the part names the same method', async (kind, method) => {
    const message = patientNotice(
      {
        kind,
        contact: contact(lang),
        bookingId: BOOKING_ID,
        reference: 'K7M2QX',
        type,
        date: '2030-03-06',
        time: '11:00',
        ...(kind.startsWith('moved') ? { old: { date: '2030-03-05', time: '10:40' } } : {}),
        sequence: 2,
      },
      SITE,
    );
    const { calendar, event, partMethods } = await calendarOf(message);
    if (method === 'REQUEST') expectRequest(calendar, event);
    else expectCancel(calendar, event);
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect(partMethods).toEqual([method]);
  });
});

describe('calendar addresses', () => {
  const base = {
    uid: 'b1@praxis.example',
    date: '2030-03-05',
    time: '10:40',
    durationMinutes: 20,
    summary: 's',
    location: 'l',
    description: 'd',
    stamp: new Date('2030-03-01T10:00:00Z'),
    sequence: 0,
    organizer: { name: 'Praxis "Dr." X', email: 'praxis@example.org' },
  };

  it('drops quotes and line breaks from the names and refuses an address that would break the line', () => {
    const ics = buildIcs({ ...base, method: 'REQUEST', attendee: { name: 'Erika "E"\r\nMUSTER', email: 'erika@example.org' } });
    const event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    expect(event.getFirstProperty('attendee')!.getParameter('cn')).toBe('Erika EMUSTER');
    expect(event.getFirstProperty('organizer')!.getParameter('cn')).toBe('Praxis Dr. X');
    expect(() => buildIcs({ ...base, method: 'CANCEL', attendee: { email: 'a@example.org\r\nATTENDEE:mailto:b@example.org' } })).toThrow();
  });

  it('a downloaded file is a PUBLISH without attendee', () => {
    const ics = buildIcs({ ...base, method: 'PUBLISH' });
    const calendar = new ICAL.Component(ICAL.parse(ics));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstSubcomponent('vevent')!.getAllProperties('attendee')).toHaveLength(0);
  });
});
