/**
 * "Mit Passkey anmelden" on /auth (docs/decisions/037-passkeys-sessions-guessing.md):
 * from the first step or the code step, the passkey alone signs in; a
 * cancelled ceremony or a refused passkey reads German; a closed code step
 * says so at the field. The browser's ceremony is mocked.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LoginForm from './login-form';

const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: (...args: unknown[]) => startAuthentication(...args) }));

const session = { user: { id: 'u1', email: 'chef@example.org' }, isAdmin: true, expiresAt: new Date(Date.now() + 900_000).toISOString(), secondFactor: 'passed' };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const OPTIONS = { challenge: 'abc', rpId: 'praxis.example', userVerification: 'required' };
const ASSERTION = { id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} };

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
  startAuthentication.mockReset();
  vi.stubGlobal('location', { ...window.location, search: '', assign });
});
afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

describe('Mit Passkey anmelden', () => {
  it('signs in with the passkey alone, without password or code', async () => {
    startAuthentication.mockResolvedValue(ASSERTION);
    serve({ '/api/auth/passkey/login/options': [() => json(200, OPTIONS)], '/api/auth/passkey/login/verify': [() => json(200, session)] });
    render(<LoginForm />);
    await userEvent.click(await screen.findByRole('button', { name: 'Mit Passkey anmelden' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin'));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls.find((c) => c.url === '/api/auth/passkey/login/verify')!.body).toEqual(ASSERTION);
    expect(calls.some((c) => c.url === '/api/auth/login')).toBe(false);
  }, 30_000);

  it('says in German when the browser’s ceremony was cancelled, and when the server refused the passkey', async () => {
    startAuthentication.mockRejectedValueOnce(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'));
    startAuthentication.mockResolvedValueOnce(ASSERTION);
    serve({
      '/api/auth/passkey/login/options': [() => json(200, OPTIONS), () => json(200, OPTIONS)],
      '/api/auth/passkey/login/verify': [() => json(401, { type: 'unauthenticated', status: 401, detail: 'developer text' })],
    });
    render(<LoginForm />);
    await userEvent.click(await screen.findByRole('button', { name: 'Mit Passkey anmelden' }));
    expect(await screen.findByText('Die Anmeldung mit Passkey wurde abgebrochen oder ist auf diesem Gerät nicht möglich.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mit Passkey anmelden' }));
    expect(await screen.findByText('Der Passkey wurde nicht erkannt. Bitte versuchen Sie es erneut oder melden Sie sich mit Passwort an.')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  }, 30_000);

  it('is offered at the code step too, and a closed code step says what still works', async () => {
    startAuthentication.mockResolvedValue(ASSERTION);
    serve({
      '/api/auth/login': [() => json(200, { second_factor: 'required' })],
      '/api/auth/second-factor': [() => json(423, { type: 'code-step-closed', status: 423 })],
      '/api/auth/passkey/login/options': [() => json(200, OPTIONS)],
      '/api/auth/passkey/login/verify': [() => json(200, session)],
    });
    render(<LoginForm />);
    await userEvent.type(screen.getByLabelText('E-Mail'), 'chef@example.org');
    await userEvent.type(screen.getByLabelText('Passwort', { selector: 'input' }), 'richtig-geheim');
    await userEvent.click(screen.getByRole('button', { name: 'Anmelden' }));
    await userEvent.type(await screen.findByLabelText('Code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Bestätigen' }));
    expect((await screen.findAllByText(/Code-Eingabe für dieses Konto gesperrt/)).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Code')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Mit Passkey anmelden' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/admin'));
  }, 30_000);
});
