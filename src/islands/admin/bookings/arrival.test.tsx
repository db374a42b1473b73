/**
 * Arrival, the dashboard's no-shows, "Name gelöscht" and a booking opened
 * from the practice's email, in jsdom (docs/decisions/026).
 */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { BookedSlotsPage } from './booked-slots-page';
import { Dashboard } from '../shell/dashboard';
import { DayListPage } from './day-list-page';
import { ArrivalCell } from './arrival';
import type { AdminBookedSlotDto } from '../shared/admin-api';
import { patientNameText } from '../shared/patient-name';
import { useAdminSession } from '../shell/use-admin-session';

type Reply = { status: number; body?: unknown };
let replies: Record<string, (body: unknown) => Reply>;
let calls: Array<{ key: string; body: unknown }>;

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const reply = (replies[key] ?? replies[key.split('?')[0]!])?.(body) ?? { status: 404, body: { detail: 'no mock' } };
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});

afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const today = berlinToday();
const yesterday = addDaysToDate(today, -1);
const ID = '33333333-3333-4333-8333-333333333333';
const OTHER = '44444444-4444-4444-8444-444444444444';

function slot(values: Record<string, unknown> = {}) {
  return {
    id: ID,
    appointment_type_id: 't1',
    type_name: 'Check-up',
    appointment_date: today,
    appointment_time: '00:00',
    source: 'phone',
    reference: 'Q2W3E4',
    practice_notified: true,
    patient_notified: true,
    status: 'booked',
    attendance: null,
    created_at: '2026-11-01T10:00:00Z',
    // As the server sends a booking without details (src/server/admin/patient-details.server.ts).
    patient: null,
    patient_state: 'none',
    ...values,
  };
}

function scheduleReplies(slots: unknown[]) {
  return {
    'GET /api/admin/booked-slots': () => ({ status: 200, body: slots }),
    'GET /api/admin/blocked-dates': () => ({ status: 200, body: [] }),
    'GET /api/admin/appointment-types': () => ({ status: 200, body: [{ id: 't1', slot_duration_minutes: 20 }] }),
  };
}

describe('holidays in the day list', () => {
  it('a public holiday shows under its day\'s heading with its German name and whether online booking is closed', async () => {
    window.history.replaceState(null, '', '/admin/tagesliste?datum=2026-12-25');
    replies = {
      ...scheduleReplies([slot({ appointment_date: '2026-12-25', appointment_time: '10:00' })]),
      'GET /api/admin/time-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/holidays': () => ({ status: 200, body: [{ date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true, closed: true }] }),
    };
    render(<DayListPage />);
    const day = await screen.findByRole('region', { name: /Freitag, 25\. Dezember 2026/ });
    expect(await within(day).findByTestId('day-holiday')).toHaveTextContent('Feiertag: 1. Weihnachtstag – online geschlossen');
    expect(calls.some((c) => c.key === 'GET /api/admin/holidays?from=2026-12-25&to=2026-12-25')).toBe(true);
  });
});

describe('arrival in the day list', () => {
  it('one tap marks "erschienen", "Rückgängig" undoes it; both are sent as PUT …/attendance', async () => {
    let stored: string | null = null;
    replies = {
      ...scheduleReplies([slot()]),
      [`PUT /api/admin/booked-slots/${ID}/attendance`]: (body) => {
        stored = (body as { attendance: string | null }).attendance;
        return { status: 200, body: { id: ID, reference: 'Q2W3E4', attendance: stored } };
      },
    };
    render(
      <>
        <Toaster />
        <DayListPage />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '00:00 Uhr, Check-up, Q2W3E4: erschienen' }));
    const row = screen.getByRole('row', { name: /Q2W3E4/ });
    await waitFor(() => expect(within(row).getByText('erschienen', { selector: '[data-attendance]' })).toBeInTheDocument());
    expect(within(row).queryByRole('button', { name: /nicht erschienen/ })).not.toBeInTheDocument();
    expect(stored).toBe('arrived');
    await user.click(within(row).getByRole('button', { name: '00:00 Uhr, Check-up, Q2W3E4: Ankunft rückgängig machen' }));
    await waitFor(() => expect(within(row).getByRole('button', { name: /: erschienen$/ })).toBeInTheDocument());
    expect(calls.filter((c) => c.key.startsWith('PUT')).map((c) => c.body)).toEqual([{ attendance: 'arrived' }, { attendance: null }]);
    expect(stored).toBeNull();
  }, 30_000);

  it('a refusal keeps the row unmarked and says why in German (the server\'s clock behind the browser\'s)', async () => {
    replies = {
      ...scheduleReplies([slot({ appointment_time: '00:00' })]),
      [`PUT /api/admin/booked-slots/${ID}/attendance`]: () => ({
        status: 409,
        body: { type: 'conflict', status: 409, detail: 'x', reason: 'not-begun' },
      }),
    };
    render(
      <>
        <Toaster />
        <DayListPage />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Q2W3E4: nicht erschienen/ }));
    expect(await screen.findByText('„Nicht erschienen“ lässt sich erst ab der Uhrzeit des Termins eintragen.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Q2W3E4: nicht erschienen/ })).toBeInTheDocument();
  });

  it('"nicht erschienen" is offered from the appointment\'s time on, appearing by itself when the time comes', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      vi.setSystemTime(new Date('2030-01-07T09:29:00+01:00'));
      render(<ArrivalCell slot={slot({ appointment_date: '2030-01-07', appointment_time: '09:30' }) as AdminBookedSlotDto} today="2030-01-07" />);
      expect(screen.getByRole('button', { name: /Q2W3E4: erschienen/ })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /nicht erschienen/ })).toBeNull();
      act(() => vi.advanceTimersByTime(59_000));
      expect(screen.queryByRole('button', { name: /nicht erschienen/ })).toBeNull();
      act(() => vi.advanceTimersByTime(1_000));
      expect(screen.getByRole('button', { name: /Q2W3E4: nicht erschienen/ })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a past day shows the mark without buttons and "Name gelöscht" for the deleted details', async () => {
    window.history.replaceState(null, '', `/admin/day-list?datum=${yesterday}`);
    replies = scheduleReplies([slot({ appointment_date: yesterday, attendance: 'no_show' }), slot({ id: OTHER, appointment_date: yesterday, reference: 'ABCDEF' })]);
    render(<DayListPage />);
    const row = await screen.findByRole('row', { name: /Q2W3E4/ });
    expect(within(row).getByText('nicht erschienen')).toBeInTheDocument();
    expect(within(row).getByText('Name gelöscht')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /ABCDEF/ })).getByText('Name gelöscht')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /erschienen|Rückgängig/ })).not.toBeInTheDocument();
  });
});

describe("the day list's default days", () => {
  it('skips days without time windows: on a Friday it shows Friday and Monday, and says so', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-27T08:00:00+01:00'));
      replies = {
        ...scheduleReplies([slot({ appointment_date: '2026-11-30', appointment_time: '09:00' })]),
        'GET /api/admin/time-slots': () => ({ status: 200, body: [1, 2, 3, 4, 5].map((day_of_week) => ({ id: `w${day_of_week}`, appointment_type_id: 't1', type_name: 'Check-up', day_of_week, start_time: '08:00', end_time: '12:00' })) }),
      };
      render(<DayListPage />);
      expect(await screen.findByRole('region', { name: /Freitag, 27\. November 2026/ })).toBeInTheDocument();
      expect(screen.getByRole('region', { name: /Montag, 30\. November 2026/ })).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: /Samstag/ })).toBeNull();
      expect(screen.getByText('Angezeigt: heute und Mo., 30.11. (Tage ohne Sprechzeiten übersprungen).')).toBeInTheDocument();
      expect(screen.getByLabelText('Datum')).toHaveValue('2026-11-27');
      // One request for Friday to Monday, the days between included.
      expect(calls.map((c) => c.key)).toContain('GET /api/admin/booked-slots?from=2026-11-27&to=2026-11-30&view=day-list');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('"Name gelöscht"', () => {
  it('names a patient; a past day without details reads "Name gelöscht"; today and later are left to the view', () => {
    const patient = { first_name: 'Erika', last_name: 'Müller' };
    expect(patientNameText({ appointment_date: yesterday, patient }, today)).toBe('Müller, Erika');
    expect(patientNameText({ appointment_date: yesterday, patient: null }, today)).toBe('Name gelöscht');
    expect(patientNameText({ appointment_date: yesterday }, today)).toBe('Name gelöscht');
    expect(patientNameText({ appointment_date: today, patient: null }, today)).toBeNull();
    expect(patientNameText({ appointment_date: today, patient }, today)).toBe('Müller, Erika');
  });
});

describe('dashboard', () => {
  it('shows no-shows per type over the last 30 and 90 days, out of the marked bookings', async () => {
    replies = {
      ...scheduleReplies([]),
      'GET /api/admin/stats': () => ({
        status: 200,
        body: {
          bookedTotal: 1, bookedToday: 0, appointmentTypes: 2, blockedDates: 0, lowStock: 0, expiringSoon: 0, unnotified: 0,
          noShows: [{ appointment_type_id: 't1', type_name: 'Check-up', no_show_30: 1, marked_30: 2, no_show_90: 3, marked_90: 4 }],
        },
      }),
    };
    render(<Dashboard />);
    const table = await screen.findByRole('table', { name: 'Nicht erschienen' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Terminart', 'Letzte 30 Tage', 'Letzte 90 Tage']);
    expect(within(table).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Check-up', '1 von 2', '3 von 4']);
  });

  it('says when no arrival was marked in 90 days', async () => {
    replies = {
      ...scheduleReplies([]),
      'GET /api/admin/stats': () => ({ status: 200, body: { bookedTotal: 0, bookedToday: 0, appointmentTypes: 0, blockedDates: 0, lowStock: 0, expiringSoon: 0, unnotified: 0, noShows: [] } }),
    };
    render(<Dashboard />);
    expect(await screen.findByText('In den letzten 90 Tagen wurde keine Ankunft eingetragen.')).toBeInTheDocument();
  });
});

describe('a booking opened from the practice email', () => {
  it('?buchung=<id> shows that booking alone until "Alle Termine anzeigen"', async () => {
    window.history.replaceState(null, '', `/admin/booked-slots?buchung=${OTHER}`);
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [slot(), slot({ id: OTHER, reference: 'ABCDEF' })] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [] }),
    };
    render(<BookedSlotsPage />);
    expect(await screen.findByText('Die Buchung aus der Benachrichtigung der Praxis.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('cell', { name: /ABCDEF/ })).toBeInTheDocument());
    expect(screen.queryByRole('cell', { name: /Q2W3E4/ })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Alle Termine anzeigen' }));
    expect(await screen.findByRole('cell', { name: /Q2W3E4/ })).toBeInTheDocument();
    expect(window.location.search).toBe('');
  });

  it('says so when the booking is gone', async () => {
    window.history.replaceState(null, '', `/admin/booked-slots?buchung=${OTHER}`);
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [slot()] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [] }),
    };
    render(<BookedSlotsPage />);
    expect(await screen.findByText('Diese Buchung gibt es nicht mehr: Sie wurde abgesagt oder ihr Tag ist vorbei.')).toBeInTheDocument();
  });

  it('signed out, the link goes through sign-in with the booking kept in the way back', async () => {
    window.history.replaceState(null, '', `/admin/booked-slots?buchung=${OTHER}`);
    replies = { 'GET /api/auth/session': () => ({ status: 401 }), 'POST /api/auth/refresh': () => ({ status: 401 }) };
    const navigate = vi.fn();
    renderHook(() => useAdminSession(navigate));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(`/auth?next=${encodeURIComponent(`/admin/booked-slots?buchung=${OTHER}`)}`));
  });
});
