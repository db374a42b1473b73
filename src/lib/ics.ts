/**
 * An iCalendar (RFC 5545) event in Berlin wall-clock time with its
 * VTIMEZONE, so calendars place it right whatever their own zone.
 */
import { addDaysToDate } from './berlin-time';

interface EventFields {
  uid: string;
  /** yyyy-MM-dd, Berlin */
  date: string;
  /** HH:mm, Berlin */
  time: string;
  durationMinutes: number;
  summary: string;
  location: string;
  description: string;
  url?: string;
  stamp: Date;
  /** Revision of the event (RFC 5545 §3.8.7.4): 0 when booked, one more with every change. */
  sequence: number;
  /** Who runs the event (the practice): calendars match a CANCEL or an update to it. */
  organizer: { name: string; email: string };
}

/**
 * RFC 5546 (docs/decisions/029): an email's REQUEST adds the event or, with
 * the same UID and a higher SEQUENCE, replaces it; its CANCEL removes the
 * event of that UID. Both name the organizer and the attendee, as §3.2.2 and
 * §3.2.5 require, so calendar apps treat the file as an invitation they
 * follow. A file the patient downloads from the page is a PUBLISH (no
 * attendee: the browser does not know the address).
 */
export type CalendarMethod = 'REQUEST' | 'CANCEL';

export type CalendarEvent = EventFields &
  (
    | { method: 'PUBLISH'; attendee?: undefined }
    | {
        method: CalendarMethod;
        /** The one attendee (the patient), confirmed already: no reply is asked (RSVP=FALSE). */
        attendee: { name?: string; email: string };
      }
  );

const BERLIN_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** TEXT value escaping, RFC 5545 §3.3.11. */
export function escapeIcsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds content lines longer than 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence. */
const utf8 = new TextEncoder();

export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = utf8.encode(char).length;
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

function localStamp(date: string, minutes: number): string {
  const dayShift = Math.floor(minutes / 1440);
  const m = minutes % 1440;
  const day = addDaysToDate(date, dayShift).replace(/-/g, '');
  return `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}00`;
}

/** A quoted parameter value (RFC 5545 §3.2): no DQUOTE, no control character. */
function paramValue(value: string): string {
  return `"${value.replace(/[\u0000-\u001f\u007f"]/g, '')}"`;
}

/** A mailto: calendar address; an address with a control character or space would break the line and is refused. */
function calAddress(email: string): string {
  if (/[\u0000-\u0020\u007f]/.test(email)) throw new Error('calendar address contains a control character');
  return `mailto:${email}`;
}

export function buildIcs(event: CalendarEvent): string {
  const [h, min] = event.time.split(':').map(Number) as [number, number];
  const start = h * 60 + min;
  const stamp = event.stamp.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const method = event.method;
  const attendee = event.attendee;
  const attendeeName = attendee?.name?.trim() ? `;CN=${paramValue(attendee.name)}` : '';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hausarztpraxis Duesseldorf//Online-Terminbuchung//DE',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...BERLIN_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=Europe/Berlin:${localStamp(event.date, start)}`,
    `DTEND;TZID=Europe/Berlin:${localStamp(event.date, start + event.durationMinutes)}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    `DESCRIPTION:${escapeIcsText(event.description)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:${calAddress(event.organizer.email)}`,
    ...(attendee ? [`ATTENDEE${attendeeName};CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:${calAddress(attendee.email)}`] : []),
    method === 'CANCEL' ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
