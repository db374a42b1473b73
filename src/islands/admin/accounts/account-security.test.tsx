/**
 * "Mein Konto" and "Benutzer" in jsdom (docs/decisions/037-passkeys-sessions-guessing.md):
 * the TOTP setup asks for the current password first; a passkey is named
 * and added after the password (the browser's ceremony mocked), listed
 * with created and last used, removed with the password; "Angemeldete
 * Geräte" marks the current session and ends one or all others; an admin
 * ends a colleague's sessions from the users page.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountPage } from './account-page';
import { UsersPage } from './users-page';

vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(async () => ({ id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} })),
}));

type Reply = { status: number; body?: unknown };
let replies: Record<string, (body: unknown) => Reply>;
let calls: Array<{ key: string; body: unknown }>;
let assign: ReturnType<typeof vi.fn>;

beforeEach(() => {
  calls = [];
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const reply = replies[key]?.(body) ?? { status: 404, body: { type: 'not-found', detail: 'no mock' } };
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});
afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

const LAPTOP = { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Laptop', created_at: '2030-03-04T09:00:00Z', last_used_at: null };
const HERE = { id: 's1', user_agent: 'x', browser: 'Chrome 120', system: 'Windows 10', created_at: '2030-03-04T08:00:00Z', last_used_at: '2030-03-04T09:30:00Z', current: true, name: null as string | null };
const PHONE = { id: 's2', user_agent: 'y', browser: 'Safari 17', system: 'iOS 17.1', created_at: '2030-03-03T08:00:00Z', last_used_at: '2030-03-03T18:00:00Z', current: false, name: null as string | null };

function account(extra: Record<string, (body: unknown) => Reply> = {}) {
  replies = {
    'GET /api/auth/totp': () => ({ status: 200, body: { enrolled: false, recovery_codes_left: 0, required: false } }),
    'GET /api/auth/passkeys': () => ({ status: 200, body: [] }),
    'GET /api/auth/sessions': () => ({ status: 200, body: [HERE, PHONE] }),
    ...extra,
  };
  render(
    <>
      <Toaster />
      <AccountPage />
    </>,
  );
}

describe('Mein Konto', () => {
  it('asks for the current password before the TOTP setup and says a wrong one at the field', async () => {
    let tries = 0;
    account({
      'POST /api/auth/totp/setup': () =>
        ++tries === 1 ? { status: 401, body: { type: 'wrong-password', status: 401 } } : { status: 200, body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_svg: '<svg/>' } },
    });
    const user = userEvent.setup();
    const totp = within(await screen.findByRole('region', { name: 'Zwei-Faktor-Anmeldung' }));
    await user.click(await totp.findByRole('button', { name: 'Zwei-Faktor-Anmeldung einrichten' }));
    await user.click(totp.getByRole('button', { name: 'Weiter' }));
    expect(totp.getByText('Bitte geben Sie Ihr Passwort ein.')).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'POST /api/auth/totp/setup')).toBe(false);
    await user.type(totp.getByLabelText(/Aktuelles Passwort/, { selector: 'input' }), 'falsch');
    await user.click(totp.getByRole('button', { name: 'Weiter' }));
    expect(await totp.findByText('Das Passwort ist falsch.')).toBeInTheDocument();
    await user.clear(totp.getByLabelText(/Aktuelles Passwort/, { selector: 'input' }));
    await user.type(totp.getByLabelText(/Aktuelles Passwort/, { selector: 'input' }), 'richtig-geheim');
    await user.click(totp.getByRole('button', { name: 'Weiter' }));
    expect(await totp.findByRole('img', { name: 'QR-Code für die Authenticator-App' })).toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'POST /api/auth/totp/setup').map((c) => c.body)).toEqual([{ password: 'falsch' }, { password: 'richtig-geheim' }]);
  }, 30_000);

  it('adds a named passkey after the password, lists it with created and last used, and removes it with the password', async () => {
    let list = [] as Array<typeof LAPTOP>;
    account({
      'GET /api/auth/passkeys': () => ({ status: 200, body: list }),
      'POST /api/auth/passkey/register/options': () => ({ status: 200, body: { challenge: 'c', rp: { id: 'praxis.example', name: 'P' }, user: { id: 'u', name: 'x', displayName: 'x' }, pubKeyCredParams: [] } }),
      'POST /api/auth/passkey/register/verify': (body) => {
        list = [LAPTOP];
        return { status: 200, body: { ...LAPTOP, name: (body as { name: string }).name } };
      },
      [`DELETE /api/auth/passkeys/${LAPTOP.id}`]: () => {
        list = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    const section = within(await screen.findByRole('region', { name: 'Passkeys' }));
    expect(await section.findByText('Noch keine Passkeys.')).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Passkey hinzufügen' }));
    await user.type(section.getByRole('textbox', { name: /Name des Passkeys/ }), 'Laptop');
    await user.type(section.getByLabelText(/Aktuelles Passwort/, { selector: 'input' }), 'richtig-geheim');
    // No TOTP on this account: no code is asked for.
    expect(section.queryByRole('textbox', { name: /Code/ })).not.toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Passkey anlegen' }));
    expect(await screen.findByText('Passkey „Laptop“ angelegt')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/auth/passkey/register/options')!.body).toEqual({ password: 'richtig-geheim' });
    expect(calls.find((c) => c.key === 'POST /api/auth/passkey/register/verify')!.body).toMatchObject({ name: 'Laptop', response: { id: 'cred' } });
    const item = await section.findByRole('listitem');
    expect(item).toHaveTextContent('Laptop');
    expect(item).toHaveTextContent('Zuletzt verwendet: noch nie');

    await user.click(section.getByRole('button', { name: 'Passkey „Laptop“ entfernen' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Passkey „Laptop“ entfernen?' }));
    await user.type(dialog.getByLabelText('Aktuelles Passwort', { selector: 'input' }), 'richtig-geheim');
    await user.click(dialog.getByRole('button', { name: 'Entfernen' }));
    expect(await screen.findByText('Passkey „Laptop“ entfernt')).toBeInTheDocument();
    expect(calls.find((c) => c.key === `DELETE /api/auth/passkeys/${LAPTOP.id}`)!.body).toEqual({ password: 'richtig-geheim' });
    await waitFor(() => expect(section.getByText('Noch keine Passkeys.')).toBeInTheDocument());
  }, 30_000);

  it('asks an account with TOTP for a code with the password when adding a passkey', async () => {
    account({
      'GET /api/auth/totp': () => ({ status: 200, body: { enrolled: true, recovery_codes_left: 10, required: false } }),
      'POST /api/auth/passkey/register/options': () => ({ status: 401, body: { type: 'invalid-code', status: 401 } }),
    });
    const user = userEvent.setup();
    const section = within(await screen.findByRole('region', { name: 'Passkeys' }));
    await user.click(await section.findByRole('button', { name: 'Passkey hinzufügen' }));
    await user.type(section.getByRole('textbox', { name: /Name des Passkeys/ }), 'Handy');
    await user.type(section.getByLabelText(/Aktuelles Passwort/, { selector: 'input' }), 'richtig-geheim');
    await user.click(section.getByRole('button', { name: 'Passkey anlegen' }));
    expect(section.getByText('Bitte geben Sie den Code ein.')).toBeInTheDocument();
    await user.type(section.getByRole('textbox', { name: /Code aus der App/ }), '123456');
    await user.click(section.getByRole('button', { name: 'Passkey anlegen' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/auth/passkey/register/options')?.body).toEqual({ password: 'richtig-geheim', code: '123456' }));
  }, 30_000);

  it('"Angemeldete Geräte": browser and system, this device marked, "Abmelden" per session and "Alle anderen abmelden"', async () => {
    let sessions = [HERE, PHONE];
    account({
      'GET /api/auth/sessions': () => ({ status: 200, body: sessions }),
      'DELETE /api/auth/sessions/s2': () => {
        sessions = [HERE];
        return { status: 204 };
      },
      'POST /api/auth/sessions/end-others': () => ({ status: 204 }),
      'DELETE /api/auth/sessions/s1': () => ({ status: 204 }),
    });
    const user = userEvent.setup();
    const devices = within(await screen.findByRole('region', { name: 'Angemeldete Geräte' }));
    const items = await devices.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Chrome 120 auf Windows 10');
    expect(items[0]).toHaveTextContent('Dieses Gerät');
    expect(items[1]).toHaveTextContent('Safari 17 auf iOS 17.1');
    expect(items[1]).not.toHaveTextContent('Dieses Gerät');
    // Every ending asks first (docs/decisions/041); "Abbrechen" ends nothing.
    await user.click(devices.getByRole('button', { name: 'Alle anderen abmelden' }));
    const askOthers = await screen.findByRole('alertdialog', { name: 'Alle anderen Sitzungen beenden?' });
    await user.click(within(askOthers).getByRole('button', { name: 'Abbrechen' }));
    expect(calls.map((c) => c.key)).not.toContain('POST /api/auth/sessions/end-others');
    await user.click(devices.getByRole('button', { name: 'Alle anderen abmelden' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Alle anderen abmelden' }));
    expect(await screen.findByText('Alle anderen Sitzungen beendet')).toBeInTheDocument();
    await user.click(devices.getByRole('button', { name: 'Abmelden: Safari 17 auf iOS 17.1' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Sitzung beenden?' });
    expect(ask).toHaveTextContent('Safari 17 auf iOS 17.1 wird abgemeldet.');
    await user.click(within(ask).getByRole('button', { name: 'Abmelden' }));
    expect(await screen.findByText('Sitzung beendet')).toBeInTheDocument();
    await waitFor(() => expect(devices.queryByRole('button', { name: 'Alle anderen abmelden' })).not.toBeInTheDocument());
    // This device's own "Abmelden" signs out.
    await user.click(devices.getByRole('button', { name: 'Abmelden: Chrome 120 auf Windows 10 (Dieses Gerät)' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Sitzung beenden?' })).getByRole('button', { name: 'Abmelden' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth'));
    expect(calls.map((c) => c.key)).toEqual(expect.arrayContaining(['POST /api/auth/sessions/end-others', 'DELETE /api/auth/sessions/s2', 'DELETE /api/auth/sessions/s1']));
  }, 30_000);

  it('"Angemeldete Geräte": a session named by its owner shows its name above browser and system, and "Benennen" saves a new one', async () => {
    let sessions = [HERE, { ...PHONE, name: 'Empfang PC 2' }];
    account({
      'GET /api/auth/sessions': () => ({ status: 200, body: sessions }),
      'PUT /api/auth/sessions/s1': (body) => {
        sessions = [{ ...HERE, name: (body as { name: string }).name }, sessions[1]!];
        return { status: 200, body: sessions[0] };
      },
    });
    const user = userEvent.setup();
    const devices = within(await screen.findByRole('region', { name: 'Angemeldete Geräte' }));
    const items = await devices.findAllByRole('listitem');
    expect(items[1]).toHaveTextContent('Empfang PC 2');
    expect(items[1]).toHaveTextContent('Safari 17 auf iOS 17.1');
    expect(items[1]).toHaveTextContent(/Angemeldet seit/);
    expect(within(items[1]!).getByRole('button', { name: 'Abmelden: Empfang PC 2' })).toBeInTheDocument();
    await user.click(devices.getByRole('button', { name: 'Benennen: Chrome 120 auf Windows 10 (Dieses Gerät)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sitzung benennen' });
    await user.type(within(dialog).getByLabelText('Name'), 'Sprechzimmer 1');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Name gespeichert')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'PUT /api/auth/sessions/s1')?.body).toEqual({ name: 'Sprechzimmer 1' });
    await waitFor(() => expect(devices.getAllByRole('listitem')[0]).toHaveTextContent('Sprechzimmer 1'));
  }, 30_000);
});

describe('Benutzer', () => {
  it('shows a colleague’s devices and ends one or all of them', async () => {
    const me = { id: '11111111-1111-4111-8111-111111111111', email: 'chefin@example.org', created_at: '2030-01-01T10:00:00Z', status: 'active', invited_until: null, second_factor: true };
    const colleague = { id: '22222222-2222-4222-8222-222222222222', email: 'kollege@example.org', created_at: '2030-01-02T10:00:00Z', status: 'active', invited_until: null, second_factor: false };
    const base = `/api/admin/users/${colleague.id}/sessions`;
    replies = {
      'GET /api/admin/users': () => ({ status: 200, body: [me, colleague] }),
      'GET /api/admin/settings': () => ({ status: 200, body: { require_second_factor: false } }),
      [`GET ${base}`]: () => ({ status: 200, body: [{ ...PHONE, current: false }] }),
      [`DELETE ${base}/s2`]: () => ({ status: 204 }),
      [`DELETE ${base}`]: () => ({ status: 204 }),
    };
    render(
      <>
        <Toaster />
        <UsersPage currentUserId={me.id} />
      </>,
    );
    const user = userEvent.setup();
    // Not for one's own account (that is "Mein Konto").
    await screen.findByRole('button', { name: 'Angemeldete Geräte von kollege@example.org' });
    expect(screen.queryByRole('button', { name: 'Angemeldete Geräte von chefin@example.org' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Angemeldete Geräte von kollege@example.org' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Angemeldete Geräte von kollege@example.org' }));
    expect(await dialog.findByText('Safari 17 auf iOS 17.1')).toBeInTheDocument();
    // No "Benennen" on a colleague's sessions: only their owner names them.
    expect(dialog.queryByRole('button', { name: /^Benennen/ })).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Abmelden: Safari 17 auf iOS 17.1' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Sitzung beenden?' })).getByRole('button', { name: 'Abmelden' }));
    expect(await screen.findByText('Sitzung beendet')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Alle abmelden' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Alle Sitzungen beenden?' });
    expect(ask).toHaveTextContent('Alle Geräte von kollege@example.org werden abgemeldet.');
    await user.click(within(ask).getByRole('button', { name: 'Alle abmelden' }));
    expect(await screen.findByText('Alle Sitzungen von kollege@example.org beendet')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toEqual(expect.arrayContaining([`DELETE ${base}/s2`, `DELETE ${base}`]));
  }, 30_000);
});
