/**
 * Reads an .ics attachment with a real iCalendar parser (ical.js), for
 * tests: the calendar's METHOD and its one event's UID, SEQUENCE, STATUS and
 * start in Berlin wall-clock time.
 */
import ICAL from 'ical.js';

export interface ParsedIcs {
  method: string;
  uid: string;
  sequence: number;
  status: string;
  /** yyyy-MM-ddTHH:mm, as written (TZID Europe/Berlin). */
  start: string;
  organizer: string | null;
  /** Each ATTENDEE's calendar address (mailto:…). */
  attendees: string[];
}

export function parseIcs(text: string): ParsedIcs {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent');
  if (events.length !== 1) throw new Error(`expected one VEVENT, found ${events.length}`);
  const event = new ICAL.Event(events[0]!);
  const start = events[0]!.getFirstProperty('dtstart')!;
  if (start.getParameter('tzid') !== 'Europe/Berlin') throw new Error('DTSTART is not in Europe/Berlin');
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    uid: event.uid,
    sequence: event.sequence,
    status: String(events[0]!.getFirstPropertyValue('status')),
    start: event.startDate.toString().slice(0, 16),
    organizer: (events[0]!.getFirstPropertyValue('organizer') as string | null) ?? null,
    attendees: events[0]!.getAllProperties('attendee').map((p) => String(p.getFirstValue())),
  };
}

/** The .ics of a parsed email (exactly one). */
export function icsOf(mail: { attachments: Array<{ contentType: string; content: string }> }): ParsedIcs {
  const files = mail.attachments.filter((a) => a.contentType.startsWith('text/calendar'));
  if (files.length !== 1) throw new Error(`expected one calendar attachment, found ${files.length}`);
  return parseIcs(files[0]!.content);
}

/** The `method` parameter of each text/calendar part's Content-Type in a raw message (RFC 6047 §2.4). */
export async function calendarPartMethods(raw: string | Buffer): Promise<string[]> {
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw);
  return mail.attachments
    .filter((a) => a.contentType === 'text/calendar')
    .map((a) => {
      const header = a.headers.get('content-type') as { params?: Record<string, string> } | undefined;
      return header?.params?.method ?? '';
    });
}
