/**
 * Sign-in with a second factor (docs/decisions/027-staff-second-factor.md):
 * the password step answers `second_factor: "required"` and the form asks
 * for the code; a wrong code reads German at the field; an account the
 * practice requires a factor of goes to "Mein Konto" after the password.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAdminSession } from '../admin/shell/use-admin-session';
import LoginForm from './login-form';

const session = (secondFactor: string) => ({ user: { id: 'u1', email: 'chef@example.org' }, isAdmin: true, expiresAt: new Date(Date.now() + 900_000).toISOString(), secondFactor });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let assign: ReturnType<typeof vi.fn>;
let calls: Array<{ url: string; body: unknown }>;

function serve(routes: Record<string, Array<() => Response>>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url === '/api/auth/status') return json(200, { adminExists: true, setupHint: null });
      const next = routes[url]?.shift();
      return next ? next() : new Response(null, { status: 404 });
    }),
  );
}

beforeEach(() => {
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, search: '', assign });
});
afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

async function password() {
  render(<LoginForm />);
  await userEvent.type(screen.getByLabelText('E-Mail'), 'chef@example.org');
  await userEvent.type(screen.getByLabelText('Passwort', { selector: 'input' }), 'richtig-geheim');
  await userEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
}

describe('sign-in with a second factor', () => {
  it('asks for the code after the password, says a wrong one in German, and enters with the right one', async () => {
    serve({
      '/api/auth/login': [() => json(200, { second_factor: 'required' })],
      '/api/auth/second-factor': [
        () => json(401, { type: 'invalid-code', status: 401, detail: 'Invalid code (developer text).' }),
        () => json(200, session('passed')),
      ],
    });
    await password();
    const code = await screen.findByLabelText('Code');
    expect(assign).not.toHaveBeenCalled();
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Bestätigen' }));
    expect(await screen.findAllByText('Der Code ist ungültig oder wurde bereits verwendet.')).not.toHaveLength(0);
    expect(screen.queryByText('Invalid code (developer text).')).not.toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(code);
    await userEvent.type(code, 'abcd-efgh-jkmn-pqrs');
    await userEvent.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin'));
    expect(calls.filter((c) => c.url === '/api/auth/second-factor').map((c) => c.body)).toEqual([{ code: '123456' }, { code: 'abcd-efgh-jkmn-pqrs' }]);
  }, 20_000);

  it('goes back to the password when the pending sign-in has expired', async () => {
    serve({
      '/api/auth/login': [() => json(200, { second_factor: 'required' })],
      '/api/auth/second-factor': [() => json(401, { type: 'unauthenticated', status: 401 })],
    });
    await password();
    await userEvent.type(await screen.findByLabelText('Code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Bestätigen' }));
    expect(await screen.findByText('Die Anmeldung ist abgelaufen. Bitte geben Sie Ihr Passwort erneut ein.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Anmelden' })).toBeInTheDocument();
  });

  it('sends an account that must set up its factor to "Mein Konto" right after the password', async () => {
    serve({ '/api/auth/login': [() => json(200, session('enrolment-required'))] });
    await password();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/konto'));
  });
});

describe('the back office while a required factor is missing', () => {
  it('leads every page but "Mein Konto" there; "Mein Konto" itself opens', async () => {
    serve({ '/api/auth/session': [() => json(200, session('enrolment-required')), () => json(200, session('enrolment-required'))] });
    const navigate = vi.fn();
    const other = renderHook(() => useAdminSession(navigate));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/admin/konto'));
    expect(other.result.current.status).toBe('loading');
    const account = renderHook(() => useAdminSession(navigate, true));
    await waitFor(() => expect(account.result.current.status).toBe('admin'));
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});
