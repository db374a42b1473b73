/** The request queue in jsdom: what a row and the detail show, the filter in the address, the status changes and their rules. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffRequestDto } from '../shared/admin-api';
import { detailRows, RequestsPage } from './requests-page';
import { printTitle } from './request-views';

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

  describe('call-backs', () => {
    // Saturday 28 November 2026, 08:00 in Berlin (07:00 UTC): "heute" is the 28th, also in a browser elsewhere.
    const NOW = new Date('2026-11-28T07:00:00Z');
    const callback = (id: string, reference: string, received: string, callback_date: string, daypart: 'morning' | 'afternoon'): StaffRequestDto => ({
      ...PRESCRIPTION,
      id,
      reference,
      kind: 'callback',
      received_at: received,
      details: { ...PRESCRIPTION.details!, medications: undefined, insurance: undefined, delivery: undefined, card_read_this_quarter: undefined, phone: '0211 5550123', callback_date, daypart, topic: 'Befund' },
    });
    const AFTERNOON = callback('44444444-4444-4444-8444-444444444444', 'NACHMI', '2026-11-26T08:00:00.000Z', '2026-11-28', 'afternoon');
    const MORNING = callback('55555555-5555-4555-8555-555555555555', 'VORMIT', '2026-11-27T08:00:00.000Z', '2026-11-28', 'morning');
    const MONDAY = callback('66666666-6666-4666-8666-666666666666', 'MONTAG', '2026-11-25T08:00:00.000Z', '2026-11-30', 'morning');

    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      replies['GET /api/admin/requests'] = () => ({ status: 200, body: [PRESCRIPTION, MONDAY, AFTERNOON, MORNING] });
    });
    afterEach(() => vi.useRealTimers());

    const references = () => screen.getAllByRole('rowheader').map((cell) => cell.textContent);

    it('shows the call-back day and part of day as columns, "–" for other kinds', async () => {
      renderPage();
      const row = (await screen.findByRole('rowheader', { name: 'MONTAG' })).closest('tr')!;
      expect(within(row).getByRole('cell', { name: /Mo\., 30\.11\.2026/ })).toHaveAttribute('data-label', 'Rückruf am');
      expect(within(row).getByRole('cell', { name: /Vormittag/ })).toHaveAttribute('data-label', 'Tageszeit');
      const prescription = screen.getByRole('rowheader', { name: 'Q2W3E4' }).closest('tr')!;
      expect(within(prescription).getAllByRole('cell', { name: /–/ })).toHaveLength(2);
      expect(screen.getByRole('heading', { level: 1, name: 'Offene Anfragen' })).toBeInTheDocument();
    });

    it('"Rückrufe heute": only today\'s call-backs, Vormittag before Nachmittag, kept in the address, printed under its own title', async () => {
      const user = userEvent.setup();
      renderPage();
      await screen.findByRole('rowheader', { name: 'MONTAG' });
      await user.click(screen.getByRole('button', { name: 'Rückrufe heute' }));
      await waitFor(() => expect(references()).toEqual(['VORMIT', 'NACHMI']));
      expect(screen.getByRole('button', { name: 'Rückrufe heute' })).toHaveAttribute('aria-pressed', 'true');
      expect(calls.map((c) => c.key)).toContain('GET /api/admin/requests?status=open&kind=callback');
      expect(window.location.search).toBe('?ansicht=rueckrufe-heute');
      expect(screen.getByLabelText('Art')).toBeDisabled();
      expect(screen.getByRole('heading', { level: 1, name: 'Rückrufe heute – 28.11.2026' })).toBeInTheDocument();
      expect(screen.getByText('2 Anfragen')).toBeInTheDocument();
      // And back to every request.
      await user.click(screen.getByRole('button', { name: 'Alle Anfragen' }));
      await waitFor(() => expect(references()).toHaveLength(4));
      expect(window.location.search).toBe('');
    });

    it('opens on the view the address names, and says when nobody is to be called back today', async () => {
      window.history.replaceState(null, '', '/admin/anfragen?ansicht=rueckrufe-heute');
      replies['GET /api/admin/requests'] = () => ({ status: 200, body: [MONDAY] });
      renderPage();
      expect(await screen.findByText('Heute keine Rückrufe zu diesem Filter.')).toBeInTheDocument();
    });
  });

  it.each([
    [{ status: 'open', kind: '', callbacksToday: false }, 'Offene Anfragen'],
    [{ status: 'new', kind: 'prescription', callbacksToday: false }, 'Anfragen: neu, Folgerezept'],
    [{ status: 'done', kind: '', callbacksToday: false }, 'Anfragen: erledigt'],
    [{ status: 'open', kind: 'referral', callbacksToday: false }, 'Anfragen: offen, Überweisung'],
    [{ status: 'all', kind: 'callback', callbacksToday: false }, 'Anfragen: alle der letzten 90 Tage, Rückruf'],
    [{ status: 'open', kind: '', callbacksToday: true }, 'Rückrufe heute – 31.12.2026'],
  ] as const)('prints %o under the title "%s"', (filter, title) => {
    expect(printTitle(filter, '2026-12-31')).toBe(title);
  });
});
