/**
 * "Störungsmeldungen" under "Mein Konto": the box shows a click at once and
 * is disabled while it is saved; the server's answer stands, a refusal puts
 * the box back and says so.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertsSwitch } from './alerts-switch';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('AlertsSwitch', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks at once, stays disabled until saved, then keeps what the server saved', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => (init?.method === 'PUT' ? new Promise<Response>((resolve) => (answer = resolve)) : json({ operations_alerts: false }))),
    );
    render(<AlertsSwitch />);
    const box = await screen.findByRole('checkbox');
    await waitFor(() => expect(box).toBeEnabled());
    await userEvent.click(box);
    expect(box).toBeChecked();
    expect(box).toBeDisabled();
    answer(json({ operations_alerts: true }));
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toBeChecked();
  });

  it('a refused save puts the box back and says so', async () => {
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => (init?.method === 'PUT' ? json({ type: 'internal-error' }, 500) : json({ operations_alerts: true }))));
    render(
      <>
        <Toaster />
        <AlertsSwitch />
      </>,
    );
    const box = await screen.findByRole('checkbox');
    await waitFor(() => expect(box).toBeChecked());
    await userEvent.click(box);
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toBeChecked();
    expect(await screen.findByText('Die Einstellung konnte nicht gespeichert werden.')).toBeInTheDocument();
  });
});
