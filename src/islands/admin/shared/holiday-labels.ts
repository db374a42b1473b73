/**
 * The back office's words for public holidays and closed days
 * (docs/decisions/039-public-holidays.md): the slot picker, the staff
 * booking and move warning, the day list and week view, and the settings
 * on "Gesperrte Termine". German only, like every back-office text.
 */
import type { HolidayDto } from './admin-api';
import { germanDate } from './views';

/** What a day is: "Feiertag: 1. Weihnachtstag", or the practice's own closed day by its name ("Heiligabend"). */
export function holidayName(day: Pick<HolidayDto, 'name' | 'statutory'>): string {
  return day.statutory ? `Feiertag: ${day.name}` : day.name;
}

export const holidayLabels = {
  /** The day list's and week view's line: "Feiertag: 1. Weihnachtstag – online geschlossen". */
  line: (day: HolidayDto) => `${holidayName(day)} – ${day.closed ? 'online geschlossen' : 'für die Online-Buchung geöffnet'}`,
  /** The slot picker beneath the chosen date. */
  pickerNote: (day: HolidayDto) =>
    day.closed
      ? `${holidayName(day)}. Die Praxis ist geschlossen; online bucht niemand. Eine Buchung hier fragt vorher nach.`
      : `${holidayName(day)}. Für die Online-Buchung geöffnet (z. B. Notdienst).`,
  /** The calendar day's label suffix. */
  dayLabel: (day: HolidayDto) => `${holidayName(day)}${day.closed ? ', geschlossen' : ', geöffnet'}`,
  warningTitle: 'Praxis an diesem Tag geschlossen',
  warning: (day: { date: string; name: string; statutory: boolean }) =>
    `Der ${germanDate(day.date)} ist ${day.statutory ? `ein gesetzlicher Feiertag (${day.name})` : `${day.name} und die Praxis hat diesen Tag geschlossen`}. Online kann an diesem Tag niemand buchen. Soll der Termin trotzdem an diesem Tag stattfinden (z. B. Notdienst)?`,
  confirmBook: 'Trotzdem an diesem Tag buchen',
  confirmMove: 'Trotzdem auf diesen Tag verschieben',
  otherDay: 'Anderen Tag wählen',
  settings: {
    title: 'Feiertage',
    summary: 'Feiertage: online geschlossen (öffnen, 24. und 31. Dezember)',
    intro:
      'Gesetzliche Feiertage in Nordrhein-Westfalen sind für die Online-Buchung geschlossen; Patienten sehen sie im Kalender als „Feiertag“. Öffnen Sie einen Feiertag nur, wenn die Praxis an diesem Tag Sprechstunde hat (z. B. Notdienst). Termine am Telefon können Sie an jedem Feiertag nach einer Rückfrage eintragen.',
    dec24: '24. Dezember (Heiligabend) geschlossen',
    dec31: '31. Dezember (Silvester) geschlossen',
    decHint: 'Heiligabend und Silvester sind in NRW keine Feiertage: ohne Haken ist an diesen Tagen online buchbar.',
    upcoming: 'Feiertage der nächsten zwölf Monate',
    date: 'Datum',
    name: 'Feiertag',
    state: 'Online-Buchung',
    closed: 'geschlossen',
    opened: 'geöffnet',
    open: (name: string, date: string) => `${name} am ${date} für die Online-Buchung öffnen`,
    saved: 'Feiertage gespeichert',
    loadError: 'Die Feiertage konnten nicht geladen werden.',
  },
} as const;
