/** The wizard's calls to the API. Each throws ApiError on a non-2xx answer. */
import type { AppointmentTypeDto } from '../../server/appointment-types.server';
import type { DayAvailability } from '../../lib/availability';
import type { EmailOutcome } from './email-toast';
import { retryAfterSeconds } from '../../lib/retry-after';

/** The API's shape of a consultation type (type-only: nothing of the server is bundled). */
export type AppointmentType = AppointmentTypeDto;

export type { DayAvailability } from '../../lib/availability';

/**
 * A closed day of GET /api/availability's `holidays` (docs/decisions/039-public-holidays.md):
 * a public holiday (`statutory`) or a day the practice closes (24/31 December).
 * Computed on the server: the holiday library never reaches the browser.
 */
export interface ClosedDay {
  date: string;
  name: string;
  name_en: string;
  statutory: boolean;
  /** Staff's answer says whether the day is closed (an opened holiday is not); the patients' lists closed days only. */
  closed?: boolean;
}

/** One answer of the availability: the selectable dates with their free times, and the range's closed days. */
export interface RangeAvailability {
  days: DayAvailability[];
  holidays: ClosedDay[];
}

export interface BookingResponse {
  /** `sequence`: the calendar event's revision after the move (the .ics download must carry it). */
  booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string; reference?: string; sequence?: number };
  email?: EmailOutcome;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { type?: string; detail?: string; errors?: Record<string, string[]> } | null,
    /** A 429's Retry-After in seconds, when the server said (retry-after.ts). */
    readonly retryAfter: number | null = null,
  ) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

async function request<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body, retryAfterSeconds(response.headers.get('retry-after')));
  return body as T;
}

export const fetchAppointmentTypes = () => request<AppointmentType[]>('/api/appointment-types');

/** Whether the practice sends SMS (the availability answer says so; docs/decisions/043-sms-second-channel.md); null until known. */
let smsOffered: boolean | null = null;

export async function fetchAvailability(type: string, from: string, to: string): Promise<RangeAvailability> {
  const query = new URLSearchParams({ type, from, to });
  const body = await request<{ days: DayAvailability[]; holidays?: ClosedDay[]; sms?: boolean }>(`/api/availability?${query}`);
  smsOffered = body.sms === true;
  return { days: body.days, holidays: body.holidays ?? [] };
}

/** Whether step 3 may offer SMS: known from the calendar's answers, else asked with one small one. */
export async function smsChoiceOffered(type: string, date: string): Promise<boolean> {
  if (smsOffered === null) await fetchAvailability(type, date, date).catch(() => undefined);
  return smsOffered === true;
}

export const postBooking = (body: Record<string, unknown>) =>
  request<BookingResponse>('/api/bookings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

export const fetchCancellation = (token: string) =>
  request<{
    appointment_type_id: string;
    type_name: string;
    type_name_en: string | null;
    appointment_date: string;
    appointment_time: string;
    reference?: string;
    price_cents?: number | null;
  }>(
    `/api/bookings/cancel?${new URLSearchParams({ token })}`,
  );

export const postCancellation = (token: string) =>
  request<{ cancelled: true }>('/api/bookings/cancel', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

export interface RescheduleResponse {
  /** `sequence`: the calendar event's revision after the move (the .ics download must carry it). */
  booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string; reference?: string; sequence?: number };
  email?: EmailOutcome;
}

export const postReschedule = (body: { token: string; appointment_date: string; appointment_time: string; language: 'de' | 'en' }) =>
  request<RescheduleResponse>('/api/bookings/reschedule', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
