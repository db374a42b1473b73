/**
 * The queue's views of the requests (docs/decisions/041-staff-messages-devices-printouts.md),
 * pure: "Rückrufe heute" (today's call-backs by Berlin's calendar, the
 * morning's before the afternoon's, then by arrival) and the printout's
 * title, which follows the filter.
 */
import type { RequestKind, RequestStatusFilter } from '../../../lib/request-schema';
import type { StaffRequestDto } from '../shared/admin-api';
import { requestLabels as L } from './request-labels';

/** What the queue shows: a status, a kind, and whether only today's call-backs. */
export interface QueueFilter {
  status: RequestStatusFilter;
  kind: RequestKind | '';
  /** "Rückrufe heute": call-backs asked for today (Berlin), morning first. */
  callbacksToday: boolean;
}

const DAYPART_ORDER = { morning: 0, afternoon: 1 } as const;

/** The call-backs of `today` (yyyy-MM-dd, Berlin), Vormittag before Nachmittag, each part oldest first. */
export function callbacksOf(rows: StaffRequestDto[], today: string): StaffRequestDto[] {
  return rows
    .filter((r) => r.kind === 'callback' && r.details?.callback_date === today)
    .sort(
      (a, b) =>
        DAYPART_ORDER[a.details?.daypart ?? 'afternoon'] - DAYPART_ORDER[b.details?.daypart ?? 'afternoon'] ||
        a.received_at.localeCompare(b.received_at) ||
        a.reference.localeCompare(b.reference),
    );
}

const germanDate = (iso: string) => iso.split('-').reverse().join('.');
const weekdayDate = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

/** "Mi., 09.01.2030": the call-back's day in the list; "–" for other kinds or when the details are gone. */
export function callbackDayText(row: StaffRequestDto): string {
  const date = row.details?.callback_date;
  return date ? weekdayDate.format(new Date(`${date}T12:00:00Z`)) : L.none;
}

/** "Vormittag" / "Nachmittag"; "–" for other kinds or when the details are gone. */
export function daypartText(row: StaffRequestDto): string {
  const part = row.details?.daypart;
  return part ? L.dayparts[part] : L.none;
}

/**
 * The printout's title: "Rückrufe heute – 28.11.2026", "Offene Anfragen"
 * (the queue as it opens), else the filter: "Anfragen: neu, Folgerezept".
 */
export function printTitle(filter: QueueFilter, today: string): string {
  if (filter.callbacksToday) return L.print.callbacksToday(germanDate(today));
  if (filter.status === 'open' && !filter.kind) return L.print.title;
  return L.print.filtered([L.print.filters[filter.status], ...(filter.kind ? [L.kinds[filter.kind]] : [])]);
}
