/**
 * The browser side of /api/admin/*. Session cookies travel
 * by themselves (same origin); a 401 means the session ended, and the
 * session hook sends the user to /auth on its next check.
 */
import { ApiError } from '../../auth/auth-client';
import { labels } from './labels';
import type { AdminAppointmentTypeDto } from '../../../server/admin/appointment-types.server';
import type { TimeWindowDto } from '../../../server/admin/time-windows.server';
import type { BlockedDateDto } from '../../../server/admin/blocked-dates.server';
import type { PatientDto, PatientHit } from '../../../server/admin/patient-details.server';
import { displayPhone } from '../../../lib/phone';
import type { InventoryItemDto } from '../../../server/admin/inventory.server';
import type { StaffUserDto } from '../../../server/admin/users.server';
import type { AuditEntryDto } from '../../../server/audit.server';
import type { StaffRequestDto } from '../../../server/requests/staff.server';
import type { RequestSettings } from '../../../server/requests/settings.server';
import type { HolidaySettingsDto } from '../../../server/holiday-settings.server';
import type { RequestKind, RequestStatusFilter } from '../../../lib/request-schema';
import type { DeviceSessionDto } from '../../../server/auth/devices.server';
import type { PasskeyDto } from '../../../lib/passkey-schemas';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

import type { AdminBookedSlotDto as BookedSlotRow } from '../../../server/admin/booked-slots.server';

/** A row of GET /api/admin/booked-slots: the booking, and the language of the patient's emails (null: none goes; docs/decisions/030). */
export type AdminBookedSlotDto = BookedSlotRow & { language?: 'de' | 'en' | null };
export type { AdminAppointmentTypeDto, TimeWindowDto, BlockedDateDto, InventoryItemDto, StaffUserDto, AuditEntryDto, PatientDto, PatientHit, StaffRequestDto, RequestSettings, DeviceSessionDto, PasskeyDto, HolidaySettingsDto };

/** A holiday (or 24/31 December when closed) as GET /api/admin/holidays answers it (docs/decisions/039-public-holidays.md). */
export interface HolidayDto {
  date: string;
  /** German name ("1. Weihnachtstag"). */
  name: string;
  name_en: string;
  /** A public holiday, or a day the practice closes by its own choice (24/31 December). */
  statutory: boolean;
  /** Closed for online booking (false: the practice opened it, e.g. for an emergency service). */
  closed: boolean;
}

/** GET/PUT /api/admin/settings. */
export interface PracticeSettings {
  require_second_factor: boolean;
  requests: RequestSettings;
  holidays: HolidaySettingsDto;
}

/** A phone booking's caller (docs/decisions/025): names and phone required, birth date (yyyy-mm-dd or dd.mm.yyyy) and email optional. */
export interface StaffBookingInput {
  appointment_type_id: string;
  appointment_date: string;
  appointment_time: string;
  first_name: string;
  last_name: string;
  phone: string;
  birth_date?: string;
  email?: string;
  language: 'de' | 'en';
  /** Book a closed day (a public holiday) all the same, after the warning (docs/decisions/039-public-holidays.md). */
  confirm_holiday?: boolean;
}
export { ApiError };

/** Who to call about a booking a block covers or cancelled (staff only, no-store). */
export interface CalledPatient {
  first_name: string;
  last_name: string;
  phone: string;
  email?: string;
}

/** A block saved with a range or a choice about the bookings it covers. */
export interface BlockSaved {
  blocked: BlockedDateDto[];
  /** Per cancelled booking: whether an email went, and who to call where none did (docs/decisions/035). */
  cancelled: Array<{ reference: string; patient_notified: boolean; channel?: 'email' | 'sms' | 'call'; patient_phone?: string; patient: CalledPatient | null }>;
  /** Covered bookings that had begun: kept, whatever was asked (docs/decisions/030). */
  kept: Array<{ id: string; reference: string; appointment_date: string; appointment_time: string; type_name: string }>;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw ApiError.fromProblem(res, data);
  return data as T;
}

/**
 * Numbers are kept in E.164 (docs/decisions/043-sms-second-channel.md);
 * reception reads and dials them as written at home: German ones national
 * ("0211 7654321"), others international. Applied where rows arrive.
 */
function readablePhones<T>(row: T): T {
  const r = row as { patient?: { phone: string } | null; phone?: unknown; patient_phone?: unknown; cancelled?: unknown };
  const patient = r.patient ? { ...r.patient, phone: displayPhone(r.patient.phone) } : r.patient;
  return {
    ...row,
    ...(r.patient !== undefined ? { patient } : {}),
    ...(typeof r.phone === 'string' ? { phone: displayPhone(r.phone) } : {}),
    // The number to call after a cancel, a move or a block (docs/decisions/043-sms-second-channel.md).
    ...(typeof r.patient_phone === 'string' ? { patient_phone: displayPhone(r.patient_phone) } : {}),
    ...(Array.isArray(r.cancelled) ? { cancelled: r.cancelled.map((c: unknown) => readablePhones(c)) } : {}),
  } as T;
}

/** One REST resource: list, create, replace, remove. */
function resource<T, In>(base: string) {
  return {
    list: () => request<T[]>('GET', base),
    create: (input: In) => request<T>('POST', base, input),
    update: (id: string, input: In) => request<T>('PUT', `${base}/${encodeURIComponent(id)}`, input),
    remove: (id: string) => request<void>('DELETE', `${base}/${encodeURIComponent(id)}`),
  };
}

export const adminApi = {
  types: resource<AdminAppointmentTypeDto, unknown>('/api/admin/appointment-types'),
  windows: resource<TimeWindowDto, unknown>('/api/admin/time-slots'),
  blocked: {
    list: () => request<BlockedDateDto[]>('GET', '/api/admin/blocked-dates'),
    /** A single block answers its row; a range or a choice about bookings answers `{ blocked, cancelled }`. */
    create: (input: unknown) => request<BlockedDateDto | BlockSaved>('POST', '/api/admin/blocked-dates', input).then(readablePhones),
    update: (id: string, input: unknown) =>
      request<BlockedDateDto | BlockSaved>('PUT', `/api/admin/blocked-dates/${encodeURIComponent(id)}`, input).then(readablePhones),
    remove: (id: string) => request<void>('DELETE', `/api/admin/blocked-dates/${encodeURIComponent(id)}`),
    /** Every day of the range the block belongs to (docs/decisions/021). */
    removeRange: (id: string) => request<void>('DELETE', `/api/admin/blocked-dates/${encodeURIComponent(id)}?scope=range`),
  },
  booked: {
    ...resource<AdminBookedSlotDto, StaffBookingInput>('/api/admin/booked-slots'),
    list: () => request<AdminBookedSlotDto[]>('GET', '/api/admin/booked-slots').then((rows) => rows.map((r) => readablePhones(r))),
    create: (input: StaffBookingInput & { sms?: boolean }) => request<AdminBookedSlotDto>('POST', '/api/admin/booked-slots', input).then(readablePhones),
    /**
     * The bookings from … to (both included, at most 62 days): the week view, the day list, the dashboard.
     * `view` names the audit row of the names shown (docs/decisions/025).
     */
    between: (from: string, to: string, view?: 'day-list' | 'week') =>
      request<AdminBookedSlotDto[]>('GET', `/api/admin/booked-slots?${new URLSearchParams({ from, to, ...(view ? { view } : {}) })}`).then((rows) =>
        rows.map((r) => readablePhones(r)),
      ),
    /** `patient_phone`: the number to call when nobody was told by email. */
    /** `confirm`: send a message that names the type all the same (docs/decisions/041). */
    cancel: (id: string, message?: string, confirm?: boolean) =>
      request<{ id: string; reference: string; patient_notified: boolean; patient_phone: string | null }>(
        'POST',
        `/api/admin/booked-slots/${encodeURIComponent(id)}/cancel`,
        message ? { message, ...(confirm ? { confirm: true } : {}) } : {},
      ).then(readablePhones),
    /** "Patient erreicht": staff told the patient by phone; the booking no longer asks for a call (docs/decisions/035). */
    informed: (id: string) =>
      request<{ id: string; reference: string; needs_call: false; informed: { by: string; at: string } }>('PUT', `/api/admin/booked-slots/${encodeURIComponent(id)}/informed`, {}),
    /** Arrival on the appointment's day; null undoes it (docs/decisions/026). */
    attendance: (id: string, attendance: 'arrived' | 'no_show' | null) =>
      request<{ id: string; reference: string; attendance: 'arrived' | 'no_show' | null }>(
        'PUT',
        `/api/admin/booked-slots/${encodeURIComponent(id)}/attendance`,
        { attendance },
      ),
    move: (id: string, input: { appointment_date: string; appointment_time: string; message?: string; confirm?: boolean; confirm_holiday?: boolean }) =>
      request<{ booking: { id: string; appointment_date: string; appointment_time: string; reference: string }; patient_notified: boolean; patient_phone: string | null }>(
        'POST',
        `/api/admin/booked-slots/${encodeURIComponent(id)}/move`,
        input,
      ).then(readablePhones),
  },
  /** Whether SMS is set up, and this month's count (the dashboard's figures; docs/decisions/043-sms-second-channel.md). */
  sms: () => request<{ sms: { sent_this_month: number; limit: number; configured: boolean } }>('GET', '/api/admin/stats').then((s) => s.sms),
  /** "Patient suchen": today's and later bookings by name part or birth date (docs/decisions/025). The query goes to the API only, never into the page's address. */
  patients: (q: string) => request<PatientHit[]>('GET', `/api/admin/patients?${new URLSearchParams({ q })}`).then((hits) => hits.map((h) => readablePhones(h))),
  /** Free dates and times of a type under staff rules (docs/decisions/021). */
  availability: (type: string, from: string, to: string) =>
    request<{ days: Array<{ date: string; times: string[] }>; holidays?: HolidayDto[] }>('GET', `/api/admin/availability?${new URLSearchParams({ type, from, to })}`),
  /** The holidays of from … to (at most 366 days) with their German names and whether closed (docs/decisions/039-public-holidays.md). */
  holidays: (from: string, to: string) => request<HolidayDto[]>('GET', `/api/admin/holidays?${new URLSearchParams({ from, to })}`),
  inventory: {
    ...resource<InventoryItemDto, unknown>('/api/admin/inventory'),
    setOrdered: (id: string, isOrdered: boolean) =>
      request<InventoryItemDto>('PATCH', `/api/admin/inventory/${encodeURIComponent(id)}`, { is_ordered: isOrdered }),
  },
  users: {
    list: () => request<StaffUserDto[]>('GET', '/api/admin/users'),
    create: (input: { email: string; password?: string; invite?: boolean }) =>
      request<{ id: string; email: string; invitationSent?: boolean }>('POST', '/api/admin/users', input),
    remove: (id: string) => request<void>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`),
    resendInvitation: (id: string) =>
      request<{ id: string; email: string; invitationSent: boolean; invited_until: string }>('POST', `/api/admin/users/${encodeURIComponent(id)}/invite`),
    /** A colleague's second factor (a lost phone); never one's own. */
    resetSecondFactor: (id: string) => request<void>('DELETE', `/api/admin/users/${encodeURIComponent(id)}/second-factor`),
  },
  settings: {
    get: () => request<PracticeSettings>('GET', '/api/admin/settings'),
    update: (input: { require_second_factor?: boolean; requests?: RequestSettings; holidays?: Partial<HolidaySettingsDto> }) =>
      request<PracticeSettings>('PUT', '/api/admin/settings', input),
  },
  /** Patient requests (docs/decisions/036): the queue, a status change, the navigation's count. */
  requests: {
    list: (filter: { status: RequestStatusFilter; kind: RequestKind | '' }) =>
      request<StaffRequestDto[]>('GET', `/api/admin/requests?${new URLSearchParams({ status: filter.status, ...(filter.kind ? { kind: filter.kind } : {}) })}`),
    change: (id: string, input: { status: 'in_progress' | 'done' | 'declined'; message?: string; confirm?: boolean }) =>
      request<StaffRequestDto & { patient_notified: boolean }>('PUT', `/api/admin/requests/${encodeURIComponent(id)}`, input),
    counts: () => request<{ new: number; open: number }>('GET', '/api/admin/request-counts'),
  },
  /** "Mein Konto": the own second factor (docs/decisions/027-staff-second-factor.md); setting it up needs the current password (docs/decisions/035). */
  secondFactor: {
    status: () => request<{ enrolled: boolean; recovery_codes_left: number; required: boolean }>('GET', '/api/auth/totp'),
    setup: (password: string) => request<{ secret: string; otpauth_url: string; qr_svg: string }>('POST', '/api/auth/totp/setup', { password }),
    confirm: (code: string) => request<{ recovery_codes: string[] }>('POST', '/api/auth/totp/confirm', { code }),
    remove: (code: string) => request<void>('DELETE', '/api/auth/totp', { code }),
  },
  /** "Mein Konto": passkeys (docs/decisions/037-passkeys-sessions-guessing.md); the ceremony itself is in accounts/passkeys-section.tsx. */
  passkeys: {
    list: () => request<PasskeyDto[]>('GET', '/api/auth/passkeys'),
    registrationOptions: (proof: { password: string; code?: string }) =>
      request<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/auth/passkey/register/options', proof),
    register: (name: string, response: RegistrationResponseJSON) => request<PasskeyDto>('POST', '/api/auth/passkey/register/verify', { name, response }),
    remove: (id: string, proof: { password?: string; code?: string }) => request<void>('DELETE', `/api/auth/passkeys/${encodeURIComponent(id)}`, proof),
  },
  /** "Angemeldete Geräte": the own sessions, and (admins) a colleague's (docs/decisions/035). */
  sessions: {
    list: () => request<DeviceSessionDto[]>('GET', '/api/auth/sessions'),
    end: (id: string) => request<void>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    /** A name for one of the own sessions ("Empfang PC 2"); empty removes it (docs/decisions/041). */
    rename: (id: string, name: string) => request<DeviceSessionDto>('PUT', `/api/auth/sessions/${encodeURIComponent(id)}`, { name }),
    endOthers: () => request<void>('POST', '/api/auth/sessions/end-others'),
    ofColleague: (userId: string) => request<DeviceSessionDto[]>('GET', `/api/admin/users/${encodeURIComponent(userId)}/sessions`),
    endColleague: (userId: string, id: string) =>
      request<void>('DELETE', `/api/admin/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(id)}`),
    endAllOfColleague: (userId: string) => request<void>('DELETE', `/api/admin/users/${encodeURIComponent(userId)}/sessions`),
  },
  audit: (filter: { user?: string; kind?: string }) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>).toString();
    return request<AuditEntryDto[]>('GET', `/api/admin/audit${query ? `?${query}` : ''}`);
  },
  changePassword: (currentPassword: string, newPassword: string) =>
    request<void>('POST', '/api/auth/password', { currentPassword, newPassword }),
};

/**
 * The toast description for a failed call, always German: worded from the
 * problem's reason or type (labels.problems), else its status; the API's
 * `detail` is a developer text and never shown (docs/decisions/020-reception.md). A
 * page words a type in its own terms with `ownTypes` (a 409 `conflict` on
 * the users page is a taken email address).
 */
export function failureText(error: unknown, ownTypes: Record<string, string> = {}): string {
  const P = labels.problems;
  if (!(error instanceof ApiError)) return P.network;
  return (
    (error.reason !== undefined ? P.reasons[error.reason] : undefined) ??
    (error.type !== undefined ? (ownTypes[error.type] ?? P.types[error.type]) : undefined) ??
    P.byStatus[error.status] ??
    P.unexpected
  );
}

/** The closed day a 409 `reason: "holiday"` names (docs/decisions/039-public-holidays.md), or null. */
export function holidayOf(error: unknown): { date: string; name: string; statutory: boolean } | null {
  if (slotReasonOf(error) !== 'holiday' || !(error instanceof ApiError)) return null;
  const holiday = (error.body as { holiday?: { date: string; name: string; statutory: boolean } } | undefined)?.holiday;
  return holiday ?? null;
}

/** The `reason` of a 409 slot-unavailable, or undefined. */
export function slotReasonOf(error: unknown): string | undefined {
  return error instanceof ApiError && error.status === 409 && error.type === 'slot-unavailable' ? error.reason : undefined;
}
