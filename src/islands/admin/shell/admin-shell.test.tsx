import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminShell from './admin-shell';
import { useAdminSession } from './use-admin-session';

const START = new Date('2026-11-23T10:00:00Z').getTime();
const admin = (expiresAt: number, isAdmin = true) => ({ user: { id: 'u1', email: 'chef@example.org' }, isAdmin, expiresAt: new Date(expiresAt).toISOString() });
const STATS = { bookedTotal: 7, bookedToday: 2, appointmentTypes: 4, blockedDates: 1, lowStock: 3 };

/** Lets pending fetches settle while the interval clock stands still. */
async function flush() {
  for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(0));
}

type Reply = { status: number; body?: unknown };
let replies: Record<string, () => Reply>;
let calls: string[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    calls.push(key);
    const reply = replies[key]?.() ?? { status: 404, body: { detail: 'no mock' } };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status });
  }));
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
  document.cookie = 'sidebar_state=; max-age=0; path=/';
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useAdminSession', () => {
  it('sends a visitor without a session to /auth (after trying a refresh)', async () => {
    replies = { 'GET /api/auth/session': () => ({ status: 401 }), 'POST /api/auth/refresh': () => ({ status: 401 }) };
    const navigate = vi.fn();
    const { result } = renderHook(() => useAdminSession(navigate));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/auth'));
    expect(calls).toEqual(['GET /api/auth/session', 'POST /api/auth/refresh']);
    expect(result.current.status).toBe('loading');
  });

  it('sends a signed-in non-admin to /', async () => {
    replies = { 'GET /api/auth/session': () => ({ status: 200, body: admin(START + 900_000, false) }) };
    const navigate = vi.fn();
    renderHook(() => useAdminSession(navigate));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
  });

  it('checks every 30 s and refreshes once 90 s or less remain', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date', 'setInterval', 'clearInterval'] });
    let expiresAt = START + 200_000; // 200 s left
    replies = {
      'GET /api/auth/session': () => ({ status: 200, body: admin(expiresAt) }),
      'POST /api/auth/refresh': () => {
        expiresAt = Date.now() + 900_000;
        return { status: 200, body: admin(expiresAt) };
      },
    };
    const navigate = vi.fn();
    const { result } = renderHook(() => useAdminSession(navigate));
    await flush();
    expect(result.current.status).toBe('admin');
    expect(calls).toEqual(['GET /api/auth/session']);

    // 170 s and 140 s left: a plain check each time.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls).toEqual(['GET /api/auth/session', 'GET /api/auth/session', 'GET /api/auth/session']);
    // 110 s left: still above the margin.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls.at(-1)).toBe('GET /api/auth/session');
    // 80 s left: refresh.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls.at(-1)).toBe('POST /api/auth/refresh');
    expect(calls.filter((c) => c.startsWith('POST'))).toHaveLength(1);
    // The fresh token has 15 minutes: back to plain checks.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(calls.at(-1)).toBe('GET /api/auth/session');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves for /auth when the session is revoked meanwhile', async () => {
    vi.useFakeTimers({ now: START, toFake: ['Date', 'setInterval', 'clearInterval'] });
    let live = true;
    replies = {
      'GET /api/auth/session': () => (live ? { status: 200, body: admin(START + 900_000) } : { status: 401 }),
      'POST /api/auth/refresh': () => ({ status: 401 }),
    };
    const navigate = vi.fn();
    const { result } = renderHook(() => useAdminSession(navigate));
    await flush();
    expect(result.current.status).toBe('admin');
    live = false;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(navigate).toHaveBeenCalledWith('/auth');
  });
});

describe('AdminShell', () => {
  it('shows a spinner, then the layout with the email, the six entries and the stats', async () => {
    replies = {
      'GET /api/auth/session': () => ({ status: 200, body: admin(Date.now() + 900_000) }),
      'GET /api/admin/stats': () => ({ status: 200, body: STATS }),
    };
    render(<AdminShell page="dashboard" />);
    expect(screen.getByRole('status')).toHaveTextContent('Wird geladen');
    expect(await screen.findByText('Admin Dashboard')).toBeInTheDocument();
    expect(screen.getByText('chef@example.org')).toBeInTheDocument();
    const links = screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual(expect.arrayContaining([
      ['Dashboard', '/admin'],
      ['Terminarten', '/admin/appointment-types'],
      ['Zeitfenster', '/admin/time-slots'],
      ['Gesperrte Tage', '/admin/blocked-dates'],
      ['Gebuchte Termine', '/admin/booked-slots'],
      ['Inventarverwaltung', '/admin/inventory'],
      ['Zur Terminbuchung', '/'],
    ]));
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    // Low stock above 0 is red.
    const low = await screen.findByText('3');
    expect(low).toHaveClass('text-red-600');
    expect(screen.getByText('7')).not.toHaveClass('text-red-600');
  });

  it('Ctrl+B and Cmd+B toggle the sidebar and keep the state in a 7-day cookie', async () => {
    replies = { 'GET /api/auth/session': () => ({ status: 200, body: admin(Date.now() + 900_000) }), 'GET /api/admin/stats': () => ({ status: 200, body: STATS }) };
    const setCookie = vi.spyOn(document, 'cookie', 'set');
    render(<AdminShell page="inventory" />);
    const sidebar = await screen.findByRole('complementary', { name: 'Admin-Navigation' });
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect(sidebar).toHaveClass('w-64');
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect(sidebar).toHaveClass('w-12');
    expect(setCookie).toHaveBeenLastCalledWith('sidebar_state=false; path=/; max-age=604800; samesite=strict');
    await userEvent.keyboard('{Meta>}b{/Meta}');
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect(screen.getByRole('heading', { name: 'Inventarverwaltung' })).toBeInTheDocument();
  });
});
