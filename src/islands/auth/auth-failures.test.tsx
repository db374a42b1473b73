/**
 * The sign-in and setup pages are German only: every
 * failure reads German whatever the server's detail says (it is a
 * developer text), and a field the server refuses (a common password) is
 * named at the field.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AdminSetupForm from './admin-setup-form';
import LoginForm from './login-form';

function answer(path: string, status: number, body: Record<string, unknown>) {
  const fetchMock = vi.fn(async (url: string) =>
    url === '/api/auth/status'
      ? new Response(JSON.stringify({ adminExists: true, setupHint: null }), { status: 200 })
      : url === path
        ? new Response(JSON.stringify({ status, ...body }), { status, headers: { 'content-type': 'application/problem+json' } })
        : new Response(null, { status: 404 }),
  );
  vi.stubGlobal('fetch', fetchMock);
}

afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

async function signIn() {
  render(<LoginForm />);
  await userEvent.type(screen.getByLabelText('E-Mail'), 'chef@example.org');
  await userEvent.type(screen.getByLabelText('Passwort', { selector: 'input' }), 'irgendwas');
  await userEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
}

describe('sign-in failures read German', () => {
  it.each([
    [401, 'unauthenticated', 'Invalid login credentials', 'E-Mail-Adresse oder Passwort ist falsch.'],
    [429, 'rate-limited', 'Too many attempts', 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es später erneut.'],
    [400, 'invalid-input', 'Some fields are missing or invalid.', 'Bitte prüfen Sie die markierten Angaben.'],
    [503, 'database-unavailable', 'The database is not reachable right now.', 'Die Datenbank ist gerade nicht erreichbar.'],
  ])('%i %s: the toast says it in German, never the server detail', async (status, type, detail, german) => {
    answer('/api/auth/login', status, { type, detail });
    await signIn();
    expect(await screen.findByText('Anmeldung fehlgeschlagen')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(german.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))).toBeInTheDocument();
    expect(screen.queryByText(detail)).not.toBeInTheDocument();
  });
});

describe('setup failures read German', () => {
  async function submit(password = 'ein-gutes-passwort') {
    render(<AdminSetupForm />);
    await userEvent.type(screen.getByLabelText('E-Mail'), 'chef@example.org');
    await userEvent.type(screen.getByLabelText('Passwort', { selector: 'input' }), password);
    await userEvent.type(screen.getByLabelText('Admin-Geheimwort'), 'falsch');
    await userEvent.click(screen.getByRole('button', { name: 'Admin-Benutzer erstellen' }));
  }

  it('a wrong setup word', async () => {
    answer('/api/auth/setup', 403, { type: 'forbidden', detail: 'Wrong word.' });
    await submit();
    expect(await screen.findByText('Das Admin-Geheimwort ist falsch.')).toBeInTheDocument();
    expect(screen.queryByText('Wrong word.')).not.toBeInTheDocument();
  });

  it('a common password is named at its field', async () => {
    answer('/api/auth/setup', 400, { type: 'invalid-input', detail: 'Some fields are missing or invalid.', errors: { password: ['errors.passwordCommon'] } });
    await submit('qwerty123456');
    expect(await screen.findByText('Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.')).toBeInTheDocument();
    expect(screen.getByLabelText('Passwort', { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('a session ended elsewhere (docs/decisions/041)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('the sign-in page says why when sent with ?beendet=1, and nothing otherwise', async () => {
    answer('/api/auth/login', 401, { type: 'unauthenticated' });
    window.history.replaceState(null, '', '/auth?next=%2Fadmin%2Fwoche&beendet=1');
    render(<LoginForm />);
    expect(screen.getByRole('status')).toHaveTextContent('Diese Anmeldung wurde beendet (auf einem anderen Gerät oder von einer Administratorin).');
    cleanup();
    window.history.replaceState(null, '', '/auth');
    render(<LoginForm />);
    expect(screen.queryByText(/Diese Anmeldung wurde beendet/)).not.toBeInTheDocument();
  });

  it('the session check answers "ended" for a refresh refused with reason session-ended, null for any other 401', async () => {
    const { currentSession, signInPath } = await import('./auth-client');
    // The access token no longer counts (401), and the refresh says why or not.
    const refusing = (refresh: Record<string, unknown>) =>
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => new Response(JSON.stringify({ status: 401, type: 'unauthenticated', ...(url === '/api/auth/refresh' ? refresh : {}) }), { status: 401 })),
      );
    refusing({ reason: 'session-ended' });
    expect(await currentSession(null)).toBe('ended');
    refusing({});
    expect(await currentSession(null)).toBeNull();
    expect(signInPath('/admin/woche', { ended: true })).toBe('/auth?next=%2Fadmin%2Fwoche&beendet=1');
    expect(signInPath('/admin', { ended: true })).toBe('/auth?beendet=1');
  });
});
