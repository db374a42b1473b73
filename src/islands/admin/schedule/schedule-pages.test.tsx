/**
 * The schedule pages' own behaviour in jsdom: the appointment types' empty state, defaults and dialogs, the time windows' form rules and toasts,
 * and the holiday settings (docs/decisions/039-public-holidays.md).
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppointmentTypesPage } from './appointment-types-page';
import { HolidaysPanel } from './holidays-panel';
import { TimeSlotsPage } from './time-slots-page';

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

const TYPE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Check-up',
  name_en: null,
  description: 'Vorsorge',
  description_en: null,
  max_advance_days: 0,
  slot_duration_minutes: 30,
  max_slots_per_time: 2,
  price_cents: 3500,
  online_bookable: true,
  updated_at: '2026-11-23T10:00:00Z',
};

/** Renders a page with the toaster its toasts need. */
function renderWithToasts(page: React.ReactElement) {
  render(
    <>
      <Toaster />
      {page}
    </>,
  );
}

describe('appointment types page', () => {
  it('shows the empty state, then creates a type with the defaults 14/20/1 and the price in cents', async () => {
    let created = false;
    replies = {
      'GET /api/admin/appointment-types': () => ({ status: 200, body: created ? [TYPE] : [] }),
      'GET /api/admin/time-slots': () => ({ status: 200, body: [] }),
      'POST /api/admin/appointment-types': (body) => {
        created = true;
        return { status: 201, body: { ...TYPE, ...(body as object) } };
      },
    };
    renderWithToasts(<AppointmentTypesPage />);
    expect(await screen.findByText('Noch keine Terminarten angelegt.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Neue Terminart' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neue Terminart' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Check-up');
    await user.type(within(dialog).getByRole('textbox', { name: 'Beschreibung' }), 'Vorsorge');
    await user.type(within(dialog).getByRole('textbox', { name: 'Preis in Euro (optional)' }), '35,5');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('POST /api/admin/appointment-types'));
    expect(calls.find((c) => c.key.startsWith('POST'))!.body).toEqual({
      name: 'Check-up',
      name_en: null,
      description: 'Vorsorge',
      description_en: null,
      max_advance_days: 14,
      slot_duration_minutes: 20,
      max_slots_per_time: 1,
      price_cents: 3550,
      online_bookable: true,
    });
    // The page's own word, and a warning: without English text the English pages show the German one.
    expect(await screen.findByText('Terminart erstellt')).toBeInTheDocument();
    expect(await screen.findByText('Ohne englischen Namen und englische Beschreibung gespeichert. Auf /en erscheint der deutsche Text.')).toBeInTheDocument();
    // The card: same day only, duration, capacity, price.
    const card = (await screen.findByRole('heading', { name: 'Check-up' })).closest('li')!;
    expect(card).toHaveTextContent('am selben Tag');
    expect(card).toHaveTextContent('30 Minuten');
    expect(card).toHaveTextContent('35,00 €');
  });

  it('pauses a type online from its dialog; the cards say which types patients cannot see', async () => {
    const second = { ...TYPE, id: '33333333-3333-4333-8333-333333333333', name: 'Impfberatung' };
    replies = {
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE, second] }),
      'GET /api/admin/time-slots': () => ({ status: 200, body: [{ id: 'w', appointment_type_id: TYPE.id, type_name: 'Check-up', day_of_week: 1, start_time: '09:00', end_time: '12:00' }] }),
      [`PUT /api/admin/appointment-types/${TYPE.id}`]: (body) => ({ status: 200, body: { ...TYPE, ...(body as object) } }),
    };
    render(<AppointmentTypesPage />);
    const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;
    expect(await screen.findByText('Für Patienten unsichtbar: noch kein Zeitfenster')).toBeInTheDocument();
    expect(card('Impfberatung')).toHaveTextContent('noch kein Zeitfenster');
    expect(card('Check-up')).not.toHaveTextContent('Für Patienten unsichtbar');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Check-up bearbeiten' }));
    const dialog = await screen.findByRole('dialog');
    const online = within(dialog).getByRole('checkbox', { name: 'Online buchbar' });
    expect(online).toBeChecked();
    expect(online).toHaveAccessibleDescription(/Patienten sehen sie nicht/);
    await user.click(online);
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(calls.find((c) => c.key.startsWith('PUT'))?.body).toMatchObject({ online_bookable: false }));
  });

  it('a refused delete (409) shows "Fehler beim Löschen" with the reason in German, only after confirming', async () => {
    replies = {
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      [`DELETE /api/admin/appointment-types/${TYPE.id}`]: () => ({
        status: 409,
        body: { type: 'type-has-future-bookings', detail: 'This type has 2 future bookings.' },
      }),
    };
    renderWithToasts(<AppointmentTypesPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Check-up löschen' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Terminart löschen?' });
    expect(calls.some((c) => c.key.startsWith('DELETE'))).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Löschen' }));
    expect(await screen.findByText('Fehler beim Löschen')).toBeInTheDocument();
    expect(screen.getByText(/^Diese Terminart hat noch zukünftige gebuchte Termine/)).toBeInTheDocument();
    expect(screen.queryByText(/future bookings/)).not.toBeInTheDocument();
  });
});

/** "Neues Zeitfenster" stays disabled until the types have loaded: wait for it, then open the dialog. */
async function openNewWindowDialog(user: ReturnType<typeof userEvent.setup>) {
  const add = await screen.findByRole('button', { name: 'Neues Zeitfenster' });
  await waitFor(() => expect(add).toBeEnabled());
  await user.click(add);
  return screen.findByRole('dialog', { name: 'Neues Zeitfenster' });
}

describe('time windows page', () => {
  it("start not before end: 'Ungültige Zeiten' toast, nothing sent", async () => {
    replies = {
      'GET /api/admin/time-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
    };
    renderWithToasts(<TimeSlotsPage />);
    const user = userEvent.setup();
    const dialog = await openNewWindowDialog(user);
    expect(within(dialog).getByRole('checkbox', { name: 'Montag' })).toBeChecked();
    const start = within(dialog).getByLabelText(/Startzeit/);
    expect(start).toHaveValue('09:00');
    expect(within(dialog).getByLabelText(/Endzeit/)).toHaveValue('17:00');
    await user.clear(start);
    await user.type(start, '17:00');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Ungültige Zeiten')).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });
});

describe('time windows page: several weekdays in one step', () => {
  it('sends days_of_week (1 = Monday … 7 = Sunday) for the ticked days; none ticked is refused at the field', async () => {
    replies = {
      'GET /api/admin/time-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/time-slots': (body) => ({
        status: 201,
        body: (body as { days_of_week: number[] }).days_of_week.map((d, i) => ({ id: `w${i}`, appointment_type_id: TYPE.id, type_name: 'Check-up', day_of_week: d % 7, start_time: '09:00', end_time: '17:00' })),
      }),
    };
    renderWithToasts(<TimeSlotsPage />);
    const user = userEvent.setup();
    const dialog = await openNewWindowDialog(user);
    const days = within(dialog).getByRole('group', { name: /Wochentage/ });
    await user.click(within(days).getByRole('checkbox', { name: 'Montag' }));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByText('Bitte wählen Sie einen Wochentag.')).toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('POST'))).toBe(false);
    for (const day of ['Dienstag', 'Donnerstag', 'Sonntag']) await user.click(within(days).getByRole('checkbox', { name: day }));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(calls.find((c) => c.key.startsWith('POST'))?.body).toEqual({ appointment_type_id: TYPE.id, days_of_week: [2, 4, 7], start_time: '09:00', end_time: '17:00' }));
    expect(await screen.findByText('3 Zeitfenster erstellt')).toBeInTheDocument();
  });
});

describe('holidays on the blocked-dates page', () => {
  it('lists the coming public holidays as the server names them; opening one and the 24/31 December switches save at once', async () => {
    let saved = { opened: [] as string[], close_dec_24: false, close_dec_31: false };
    const holidays = () => [
      { date: '2026-12-24', name: 'Heiligabend', name_en: 'Christmas Eve', statutory: false, closed: saved.close_dec_24 },
      { date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true, closed: !saved.opened.includes('2026-12-25') },
      { date: '2026-12-26', name: '2. Weihnachtstag', name_en: 'Boxing Day', statutory: true, closed: !saved.opened.includes('2026-12-26') },
    ];
    replies = {
      'GET /api/admin/settings': () => ({ status: 200, body: { require_second_factor: false, requests: {}, holidays: saved } }),
      'GET /api/admin/holidays': () => ({ status: 200, body: holidays() }),
      'PUT /api/admin/settings': (body) => {
        saved = { ...saved, ...(body as { holidays: typeof saved }).holidays };
        return { status: 200, body: { require_second_factor: false, requests: {}, holidays: saved } };
      },
    };
    renderWithToasts(<HolidaysPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByText('Feiertage: online geschlossen (öffnen, 24. und 31. Dezember)'));
    const boxing = await screen.findByRole('checkbox', { name: '2. Weihnachtstag am 26.12.2026 für die Online-Buchung öffnen' });
    // 24 December is not a public holiday: it has its switch, not a row.
    expect(screen.queryByRole('checkbox', { name: /Heiligabend am/ })).toBeNull();
    expect(boxing).not.toBeChecked();
    expect(boxing.closest('li')).toHaveTextContent('geschlossen');
    await user.click(boxing);
    await waitFor(() => expect(boxing).toBeChecked());
    expect(boxing.closest('li')).toHaveTextContent('geöffnet');
    await user.click(screen.getByRole('checkbox', { name: '24. Dezember (Heiligabend) geschlossen' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: '24. Dezember (Heiligabend) geschlossen' })).toBeChecked());
    expect(calls.filter((c) => c.key === 'PUT /api/admin/settings').map((c) => c.body)).toEqual([{ holidays: { opened: ['2026-12-26'] } }, { holidays: { close_dec_24: true } }]);
    expect(await screen.findAllByText('Feiertage gespeichert')).not.toHaveLength(0);
  });
});
