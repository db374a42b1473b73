/**
 * The .ics download of an appointment, built in the browser: the same event
 * as the confirmation email's attachment (UID `<booking id>@<host>`), so a
 * calendar that gets both, or a moved appointment's new file, keeps one entry.
 */
import type { TFunction } from 'i18next';
import type { Lang } from '../../i18n/i18n';
import { buildIcs } from '../../lib/ics';
import { fullAddress, practice } from '../../lib/practice';

export interface CalendarFileInput {
  /** The booking's id; without one (no answer yet) a stand-in from date, time and type. */
  bookingId?: string;
  typeId: string;
  typeName: string;
  durationMinutes: number;
  date: string;
  time: string;
  lang: Lang;
  t: TFunction;
  /** The event's SEQUENCE: a moved appointment's file must be newer than the one the calendar holds. */
  sequence?: number;
}

export function calendarFileHref({ bookingId, typeId, typeName, durationMinutes, date, time, lang, t, sequence = 0 }: CalendarFileInput): string {
  const place = `${practice.name[lang]}, ${fullAddress()}`;
  const ics = buildIcs({
    uid: `${bookingId ?? `${date}-${time}-${typeId}`}@${window.location.hostname}`,
    date,
    time,
    durationMinutes,
    summary: t('success.calendarSummary', { type: typeName, practice: practice.name[lang] }),
    location: place,
    description: t('success.text'),
    stamp: new Date(),
    method: 'PUBLISH',
    sequence,
    organizer: { name: practice.name[lang], email: practice.email },
  });
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`;
}

export const calendarFileName = (lang: Lang) => (lang === 'de' ? 'termin.ics' : 'appointment.ics');
