/** The inventory page's own behaviour in jsdom: the reorder warning, the ordered checkbox, the phone cards' labels, a failed load. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InventoryPage } from './inventory-page';

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
  // sonner keeps its toasts in module state; none may leak into the next test.
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders a page with the toaster its toasts need. */
function renderWithToasts(page: React.ReactElement) {
  render(
    <>
      <Toaster />
      {page}
    </>,
  );
}

describe('inventory page', () => {
  const item = (over: object) => ({
    id: '22222222-2222-4222-8222-222222222222',
    name: 'EKG-Elektroden',
    article_number: null,
    supplier: 'Kardio',
    expiry_date: null,
    current_stock: 3,
    minimum_stock: 10,
    is_ordered: false,
    last_inventory_check: null,
    last_usage_date: null,
    notes: null,
    updated_at: '2026-11-23T10:00:00Z',
    ...over,
  });

  it('warns about items to reorder; the checkbox PATCHes at once and the warning goes', async () => {
    replies = {
      'GET /api/admin/inventory': () => ({ status: 200, body: [item({})] }),
      'PATCH /api/admin/inventory/22222222-2222-4222-8222-222222222222': (body) => ({ status: 200, body: item(body as object) }),
    };
    renderWithToasts(<InventoryPage />);
    expect(await screen.findByText('1 Artikel benötigen Nachbestellung!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Niedriger Bestand (1)' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'EKG-Elektroden bestellt' }));
    await waitFor(() => expect(calls.find((c) => c.key.startsWith('PATCH'))?.body).toEqual({ is_ordered: true }));
    expect(await screen.findByText('Erfolgreich aktualisiert')).toBeInTheDocument();
    expect(screen.queryByText(/benötigen Nachbestellung/)).not.toBeInTheDocument();
  });

  it('says what "3 / 10" are, and labels each cell with its column for the phone cards', async () => {
    replies = { 'GET /api/admin/inventory': () => ({ status: 200, body: [item({})] }) };
    render(<InventoryPage />);
    const cell = await screen.findByRole('cell', { name: '3 / 10' });
    expect(screen.getByRole('columnheader', { name: 'Bestand / Mindestbestand' })).toBeInTheDocument();
    expect(cell).toHaveAttribute('data-label', 'Bestand / Mindestbestand');
    expect(screen.getByRole('cell', { name: 'Kardio' })).toHaveAttribute('data-label', 'Lieferant');
    // The row's name is its header; the cards show it as their title, without a label.
    expect(screen.getByRole('rowheader', { name: /EKG-Elektroden/ })).not.toHaveAttribute('data-label');
  });

  it("a failed load shows 'Fehler' with 'Inventar konnte nicht geladen werden.'", async () => {
    replies = { 'GET /api/admin/inventory': () => ({ status: 500, body: {} }) };
    renderWithToasts(<InventoryPage />);
    expect(await screen.findByText('Inventar konnte nicht geladen werden.')).toBeInTheDocument();
    expect(screen.getByText('Fehler')).toBeInTheDocument();
  });
});
