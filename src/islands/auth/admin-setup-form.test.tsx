import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AdminSetupForm from './admin-setup-form';

function mockStatus(setupHint: string | null) {
  const fetchMock = vi.fn(async (url: string) =>
    url === '/api/auth/status'
      ? new Response(JSON.stringify({ adminExists: false, setupHint }), { status: 200 })
      : new Response(JSON.stringify({ type: 'forbidden', status: 403, detail: 'Das Admin-Geheimwort ist falsch.' }), { status: 403 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AdminSetupForm', () => {
  it('shows the default secret word when the server offers it (outside production)', async () => {
    mockStatus('praxis-setup');
    render(<AdminSetupForm />);
    expect(await screen.findByText('Hinweis: Das Standard-Geheimwort lautet „praxis-setup“.')).toBeInTheDocument();
    expect(screen.getByLabelText('Admin-Geheimwort')).toHaveAccessibleDescription(/praxis-setup/);
  });

  it('shows no hint when the server gives none (production)', async () => {
    const fetchMock = mockStatus(null);
    render(<AdminSetupForm />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await screen.findByRole('button', { name: 'Admin-Benutzer erstellen' });
    expect(screen.queryByText(/Standard-Geheimwort/)).not.toBeInTheDocument();
  });

  it('checks the fields before sending anything', async () => {
    const fetchMock = mockStatus(null);
    render(<AdminSetupForm />);
    await userEvent.type(screen.getByLabelText('E-Mail'), 'chef@example.org');
    await userEvent.type(screen.getByLabelText('Passwort', { selector: 'input' }), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Admin-Benutzer erstellen' }));
    expect(await screen.findByText('Das Passwort muss mindestens 12 Zeichen haben.')).toBeInTheDocument();
    expect(screen.getByText('Bitte geben Sie das Admin-Geheimwort ein.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/auth/status']);
  });
});
