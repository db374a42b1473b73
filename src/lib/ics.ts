/**
 * An iCalendar (RFC 5545) event in Berlin wall-clock time with its
 * VTIMEZONE, so calendars place it right whatever their own zone.
 */
import { addDaysToDate } from './berlin-time';

export interface CalendarEvent {
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
  /**
   * RFC 5546: PUBLISH (default) adds or, with a higher SEQUENCE and the same
   * UID, replaces the event; CANCEL removes the event of that UID.
   */
  method?: 'PUBLISH' | 'CANCEL';
  /** Revision of the event (RFC 5545 §3.8.7.4): 0 when booked, one more with every change. */
  sequence?: number;
  /** Who runs the event: calendars match a CANCEL or an update to it. */
  organizer?: { name: string; email: string };
}

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

export function buildIcs(event: CalendarEvent): string {
  const [h, min] = event.time.split(':').map(Number) as [number, number];
  const start = h * 60 + min;
  const stamp = event.stamp.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const method = event.method ?? 'PUBLISH';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hausarztpraxis Duesseldorf//Online-Terminbuchung//DE',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...BERLIN_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence ?? 0}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=Europe/Berlin:${localStamp(event.date, start)}`,
    `DTEND;TZID=Europe/Berlin:${localStamp(event.date, start + event.durationMinutes)}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    `DESCRIPTION:${escapeIcsText(event.description)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.organizer ? [`ORGANIZER;CN="${event.organizer.name.replace(/["\r\n]/g, '')}":mailto:${event.organizer.email}`] : []),
    method === 'CANCEL' ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
