import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldLine } from './ics';

const event = {
  uid: 'b1@praxis.example',
  date: '2026-03-28',
  time: '23:50',
  durationMinutes: 20,
  summary: 'Check-up, Vorsorge; "Praxis"',
  location: 'Königsallee 1, 40212 Düsseldorf',
  description: 'Zeile 1\nZeile 2 \\ Ende',
  url: 'https://praxis.example/termin/absagen?token=abc',
  stamp: new Date('2026-03-01T10:00:00.123Z'),
  method: 'PUBLISH' as const,
  sequence: 0,
  organizer: { name: 'Praxis', email: 'praxis@example.org' },
};

describe('iCalendar event', () => {
  const ics = buildIcs(event);
  const unfolded = ics.replace(/\r\n /g, '');

  it('is a VCALENDAR with CRLF line ends and a Europe/Berlin VTIMEZONE', () => {
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toContain('\n');
    expect(unfolded).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin');
    expect(unfolded).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
  });

  it('states start and end in Berlin wall-clock time, across midnight too', () => {
    expect(unfolded).toContain('DTSTART;TZID=Europe/Berlin:20260328T235000');
    expect(unfolded).toContain('DTEND;TZID=Europe/Berlin:20260329T001000');
    expect(unfolded).toContain('DTSTAMP:20260301T100000Z');
  });

  it('escapes text values', () => {
    expect(escapeIcsText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
    expect(unfolded).toContain('SUMMARY:Check-up\\, Vorsorge\\; "Praxis"');
    expect(unfolded).toContain('DESCRIPTION:Zeile 1\\nZeile 2 \\\\ Ende');
  });

  it('folds lines at 75 octets without splitting a UTF-8 character', () => {
    const long = `LOCATION:${'ü'.repeat(60)}`;
    const folded = foldLine(long);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
  });
});
