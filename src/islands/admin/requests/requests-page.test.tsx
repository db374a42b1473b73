/** The request queue in jsdom: what a row and the detail show, the filter in the address, the status changes and their rules. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffRequestDto } from '../shared/admin-api';
import { detailRows, RequestsPage } from './requests-page';

type Reply = { status: number; body?: unknown };
let replies: Record<string, (body: unknown) => Reply>;
let calls: Array<{ key: string; body: unknown }>;

const PRESCRIPTION: StaffRequestDto = {
  id: '22222222-2222-4222-8222-222222222222',
  reference: 'Q2W3E4',
  kind: 'prescription',
  status: 'new',
  received_at: '2030-01-07T06:30:00.000Z',
  status_at: '2030-01-07T06:30:00.000Z',
  closed_at: null,
  details_state: 'present',
  message: null,
  details: {
    first_name: 'Erika',
    last_name: 'Mustermann',
    birth_date: '1964-08-12',
    email: 'erika@example.org',
    phone: null,
    language: 'de',
    note: null,
    insurance: 'statutory',
    delivery: 'card',
    card_read_this_quarter: false,
    medications: [
      { name: 'Ramipril', strength: '5 mg', pack: 'N3' },
      { name: 'Metformin', strength: null, pack: null },
    ],
  },
};
const DELETED: StaffRequestDto = { ...PRESCRIPTION, id: '33333333-3333-4333-8333-333333333333', reference: 'ABCDEF', kind: 'callback', details: null, details_state: 'deleted' };

beforeEach(() => {
  calls = [];
  window.history.replaceState(null, '', '/admin/anfragen');
  replies = {
    'GET /api/admin/settings': () => ({ status: 200, body: { require_second_factor: false, requests: { prescription: true, referral: true, callback: true, notice_de: null, notice_en: null } } }),
    'GET /api/admin/requests': () => ({ status: 200, body: [PRESCRIPTION, DELETED] }),
  };
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
});

function renderPage() {
  render(
    <>
      <Toaster />
      <RequestsPage />
    </>,
  );
}

describe('the request queue', () => {
  it('lists each request with its patient, or why there is none', async () => {
    renderPage();
    const row = (await screen.findByRole('rowheader', { name: 'Q2W3E4' })).closest('tr')!;
    expect(within(row).getByText('Folgerezept')).toBeInTheDocument();
    expect(within(row).getByText('Mustermann, Erika (geb. 12.08.1964)')).toBeInTheDocument();
    expect(within(row).getByText('07.01.2030, 07:30')).toBeInTheDocument();
    const gone = screen.getByRole('rowheader', { name: 'ABCDEF' }).closest('tr')!;
    expect(within(gone).getByText('Angaben gelöscht (Aufbewahrungsfrist abgelaufen)')).toBeInTheDocument();
  });

  it('names every field in the order reception types them, medications as one line each', () => {
    expect(detailRows(PRESCRIPTION).map((r) => [r.label, r.value, r.copy ?? r.value])).toEqual([
      ['Name', 'Erika Mustermann', 'Erika Mustermann'],
      ['Geburtsdatum', '12.08.1964', '12.08.1964'],
      ['Medikament 1', 'Ramipril · 5 mg · N3', 'Ramipril 5 mg N3'],
      ['Medikament 2', 'Metformin', 'Metformin'],
      ['Versicherung', 'gesetzlich', 'gesetzlich'],
      ['Rezept', 'E-Rezept auf die Karte', 'E-Rezept auf die Karte'],
      ['Karte in diesem Quartal eingelesen', 'nein – Karte muss erst eingelesen werden', 'nein – Karte muss erst eingelesen werden'],
      ['E-Mail', 'erika@example.org', 'erika@example.org'],
      ['Sprache', 'Deutsch', 'Deutsch'],
    ]);
  });

  it('keeps the filter in the address and asks the API for it', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: 'Q2W3E4' });
    await user.selectOptions(screen.getByLabelText('Art'), 'Rückruf');
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/admin/requests?status=open&kind=callback'));
    expect(window.location.search).toBe('?art=callback');
  });

  it('declines only with a message, and sends it', async () => {
    const user = userEvent.setup();
    replies['PUT /api/admin/requests/22222222-2222-4222-8222-222222222222'] = (body) => ({
      status: 200,
      body: { ...PRESCRIPTION, status: 'declined', message: (body as { message: string }).message, patient_notified: true },
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Anfrage Q2W3E4 öffnen' }));
    const dialog = screen.getByRole('dialog', { name: 'Folgerezept Q2W3E4' });
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(within(dialog).getByLabelText('Nachricht an den Patienten')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.key.startsWith('PUT'))).toBe(false);
    await user.click(within(dialog).getByLabelText('Nachricht an den Patienten'));
    await user.paste('Bitte vereinbaren Sie einen Termin.');
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    await waitFor(() => expect(calls.find((c) => c.key.startsWith('PUT'))?.body).toEqual({ status: 'declined', message: 'Bitte vereinbaren Sie einen Termin.' }));
    expect(await screen.findByText('Der Patient wird per E-Mail informiert.')).toBeInTheDocument();
  });

  it('says so when a colleague was quicker, and loads the list again', async () => {
    const user = userEvent.setup();
    replies['PUT /api/admin/requests/22222222-2222-4222-8222-222222222222'] = () => ({ status: 409, body: { type: 'conflict', status: 409 } });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Anfrage Q2W3E4 öffnen' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Erledigt' }));
    expect(await screen.findByText('Die Anfrage wurde inzwischen von jemand anderem bearbeitet. Die Liste ist neu geladen.')).toBeInTheDocument();
    expect(calls.filter((c) => c.key.startsWith('GET /api/admin/requests'))).toHaveLength(2);
  });

  describe('a message that names what was asked for', () => {
    const PUT = 'PUT /api/admin/requests/22222222-2222-4222-8222-222222222222';
    async function sendNamingMessage(user: ReturnType<typeof userEvent.setup>) {
      replies[PUT] = (body) =>
        (body as { confirm?: boolean }).confirm
          ? { status: 200, body: { ...PRESCRIPTION, status: 'done', message: (body as { message: string }).message, patient_notified: true } }
          : { status: 409, body: { type: 'message-names-details', status: 409, names: ['medication'] } };
      renderPage();
      await user.click(await screen.findByRole('button', { name: 'Anfrage Q2W3E4 öffnen' }));
      const dialog = screen.getByRole('dialog', { name: 'Folgerezept Q2W3E4' });
      await user.click(within(dialog).getByLabelText('Nachricht an den Patienten'));
      await user.paste('Ihr Ramipril liegt bereit.');
      await user.click(within(dialog).getByRole('button', { name: 'Erledigt' }));
      return screen.findByRole('alertdialog', { name: 'Nachricht nennt Einzelheiten' });
    }

    it('asks first, saying why, and sends it anyway with confirm: true', async () => {
      const user = userEvent.setup();
      const question = await sendNamingMessage(user);
      expect(question).toHaveTextContent('Die Nachricht nennt ein Medikament der Anfrage.');
      expect(question).toHaveTextContent('E-Mail ist nicht vertraulich');
      await user.click(within(question).getByRole('button', { name: 'Trotzdem senden' }));
      await waitFor(() =>
        expect(calls.filter((c) => c.key === PUT).map((c) => c.body)).toEqual([
          { status: 'done', message: 'Ihr Ramipril liegt bereit.' },
          { status: 'done', message: 'Ihr Ramipril liegt bereit.', confirm: true },
        ]),
      );
      expect(await screen.findByText('Der Patient wird per E-Mail informiert.')).toBeInTheDocument();
    });

    it('lets staff edit the message instead: nothing more is sent, the message field has the focus', async () => {
      const user = userEvent.setup();
      const question = await sendNamingMessage(user);
      await user.click(within(question).getByRole('button', { name: 'Nachricht bearbeiten' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      await waitFor(() => expect(screen.getByLabelText('Nachricht an den Patienten')).toHaveFocus());
      expect(calls.filter((c) => c.key === PUT)).toHaveLength(1);
    });
  });
});
