/** The staff pages of docs/decisions/010 in jsdom: the bodies they send and how they show refusals. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditPage } from './audit-page';
import { PasswordPage } from './password-page';
import { UsersPage } from './users-page';

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
      const reply = replies[key]?.(body) ?? { status: 404, body: { detail: 'no mock' } };
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});

afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

const ME = { id: '11111111-1111-4111-8111-111111111111', email: 'chefin@example.org', created_at: '2026-11-01T10:00:00Z' };
const OTHER = { id: '22222222-2222-4222-8222-222222222222', email: 'kollege@example.org', created_at: '2026-11-02T10:00:00Z' };

describe('users page', () => {
  it('marks the signed-in user, sends an invitation by default and an initial password when chosen', async () => {
    replies = {
      'GET /api/admin/users': () => ({ status: 200, body: [ME, OTHER] }),
      'POST /api/admin/users': (body) => ({ status: 201, body: { id: 'x', email: (body as { email: string }).email, invitationSent: true } }),
    };
    render(
      <>
        <Toaster />
        <UsersPage currentUserId={ME.id} />
      </>,
    );
    expect(await screen.findByRole('cell', { name: 'chefin@example.org (Sie)' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Kollegen hinzufügen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Kollegen hinzufügen' });
    expect(within(dialog).queryByRole('textbox', { name: /Startpasswort/ })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /E-Mail/ }), 'neu@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Einladung gesendet')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/admin/users')!.body).toEqual({ email: 'neu@example.org', invite: true });

    await user.click(screen.getByRole('button', { name: 'Kollegen hinzufügen' }));
    dialog = await screen.findByRole('dialog', { name: 'Kollegen hinzufügen' });
    await user.type(within(dialog).getByRole('textbox', { name: /E-Mail/ }), 'zwei@example.org');
    await user.click(within(dialog).getByRole('radio', { name: 'Startpasswort vergeben' }));
    const password = within(dialog).getByLabelText(/^Startpasswort\s*\*?$/, { selector: 'input' });
    await user.type(password, 'kurz');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByText('Das Passwort muss mindestens 12 Zeichen haben.')).toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'POST /api/admin/users')).toHaveLength(1);
    await user.clear(password);
    await user.type(password, 'lang-genug-2030');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/admin/users')).toHaveLength(2));
    expect(calls.filter((c) => c.key === 'POST /api/admin/users')[1]!.body).toEqual({ email: 'zwei@example.org', password: 'lang-genug-2030' });
  }, 30_000);

  it('a resend refused by the limit (429) says so, and that the last link still works', async () => {
    const invited = { ...OTHER, status: 'invited', invited_until: '2026-11-04T10:00:00Z' };
    replies = {
      'GET /api/admin/users': () => ({ status: 200, body: [ME, invited] }),
      [`POST /api/admin/users/${OTHER.id}/invite`]: () => ({
        status: 429,
        body: { type: 'rate-limited', status: 429, detail: 'Sie haben in der letzten Stunde zu viele Einladungen gesendet. Bitte versuchen Sie es später erneut.' },
      }),
    };
    render(
      <>
        <Toaster />
        <UsersPage currentUserId={ME.id} />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Einladung an kollege@example.org erneut senden' }));
    expect(await screen.findByText(/zu viele Einladungen gesendet .*Der zuletzt gesendete Link gilt weiter/)).toBeInTheDocument();
    expect(screen.queryByText(/Neue Einladung an/)).not.toBeInTheDocument();
  });

  it('a refused removal of the last admin shows the server reason', async () => {
    replies = {
      'GET /api/admin/users': () => ({ status: 200, body: [ME] }),
      [`DELETE /api/admin/users/${ME.id}`]: () => ({
        status: 409,
        body: { type: 'last-admin', status: 409, detail: 'Der letzte Admin-Benutzer kann nicht entfernt werden.' },
      }),
    };
    render(
      <>
        <Toaster />
        <UsersPage currentUserId={ME.id} />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'chefin@example.org entfernen' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Entfernen' }));
    expect(await screen.findByText('Der letzte Admin-Benutzer kann nicht entfernt werden.')).toBeInTheDocument();
  });
});

describe('password page', () => {
  it('shows the password rules under the new password before the first attempt', () => {
    replies = {};
    render(<PasswordPage />);
    const rules = 'Mindestens 12 Zeichen und kein verbreitetes Passwort (wie „passwort1234“). Gut zu merken: mehrere Wörter als Satz.';
    expect(screen.getByText(rules)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Neues Passwort/, { selector: 'input' })).toHaveAccessibleDescription(rules);
    expect(calls).toEqual([]);
  });

  it('a wrong current password (401) shows at its field; success clears the form', async () => {
    let attempt = 0;
    replies = {
      'POST /api/auth/password': () => (++attempt === 1 ? { status: 401, body: { status: 401, detail: 'Das aktuelle Passwort ist falsch.' } } : { status: 204 }),
    };
    render(
      <>
        <Toaster />
        <PasswordPage />
      </>,
    );
    const user = userEvent.setup();
    const current = screen.getByLabelText(/^Aktuelles Passwort/, { selector: 'input' });
    const next = screen.getByLabelText(/^Neues Passwort/, { selector: 'input' });
    await user.type(current, 'falsch');
    await user.type(next, 'neues-passwort-1');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Das aktuelle Passwort ist falsch.', { selector: 'p[id$="-error"]' })).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({ currentPassword: 'falsch', newPassword: 'neues-passwort-1' });
    await user.clear(current);
    await user.type(current, 'richtig');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Passwort geändert')).toBeInTheDocument();
    await waitFor(() => expect(current).toHaveValue(''));
  });
});

describe('audit page', () => {
  it('lists entries in German and asks the server again when a filter changes', async () => {
    const entry = { id: 1, user_id: ME.id, user_email: ME.email, action: 'release', entity: 'booked-slot', entity_id: 'abc', at: '2026-11-23T09:00:00Z' };
    replies = {
      'GET /api/admin/users': () => ({ status: 200, body: [ME, OTHER] }),
      'GET /api/admin/audit': () => ({ status: 200, body: [entry] }),
      [`GET /api/admin/audit?user=${OTHER.id}`]: () => ({ status: 200, body: [] }),
      [`GET /api/admin/audit?user=${OTHER.id}&kind=inventory-item`]: () => ({ status: 200, body: [] }),
    };
    render(<AuditPage />);
    const row = (await screen.findByRole('cell', { name: 'Gebuchter Termin' })).closest('tr')!;
    expect(row).toHaveTextContent('freigegeben');
    expect(row).toHaveTextContent('chefin@example.org');
    const user = userEvent.setup();
    await screen.findByRole('option', { name: OTHER.email });
    await user.selectOptions(screen.getByLabelText('Benutzer'), OTHER.id);
    expect(await screen.findByText('Keine Änderungen für diese Auswahl.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Bereich'), 'inventory-item');
    await waitFor(() => expect(calls.map((c) => c.key)).toContain(`GET /api/admin/audit?user=${OTHER.id}&kind=inventory-item`));
  });
});
