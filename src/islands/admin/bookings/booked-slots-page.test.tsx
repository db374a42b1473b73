/** The booked list's own behaviour in jsdom: what a row shows, "Termin eintragen", "Absagen", "Patient suchen", counters and filters. */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { formatLongDate, formatShortDate } from '../../../lib/dates';
import { BookedSlotsPage } from './booked-slots-page';
import { nextMonth } from '../../booking/use-availability';
import { monthCaption } from '../../../../tests/helpers/month-caption';

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

type Days = Array<{ date: string; times: string[] }>;

type Holidays = Array<{ date: string; name: string; name_en: string; statutory: boolean; closed: boolean }>;

/** GET /api/admin/availability answers these days (and holidays) for the requested `from` (the staff slot picker). */
function answerAvailability(days: (from: string) => Days | Promise<Days>, holidays: (from: string) => Holidays = () => []) {
  const fetchMock = vi.mocked(fetch);
  const original = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (url, init) => {
    if (!String(url).startsWith('/api/admin/availability')) return original(url, init);
    const from = new URL(String(url), 'http://x').searchParams.get('from')!;
    return new Response(JSON.stringify({ days: await days(from), holidays: holidays(from) }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

describe('booked slots page', () => {
  const slot = (id: string, date: string, time: string, type = 'Check-up') => ({
    id,
    appointment_type_id: TYPE.id,
    type_name: type,
    appointment_date: date,
    appointment_time: time,
    created_at: '2026-11-20T09:00:00Z',
    source: 'online',
    reference: 'ABCDEF',
    practice_notified: true,
    status: 'booked',
    patient_notified: true,
    patient_notice: 'sent',
    needs_call: false,
    patient: { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', phone: '+49 211 5550123', email: 'erika@example.org', language: 'de' },
    patient_state: 'present',
  });
  const caller = { first_name: 'Jürgen', last_name: 'Müller', birth_date: null, phone: '0211 4445566', email: null, language: 'de' };

  it('shows reference, source (Online/Telefon) and the not-notified mark', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [
          { ...slot('a', '2030-01-08', '09:00'), reference: 'K7MZ4Q', source: 'phone' },
          { ...slot('b', '2030-01-08', '09:20'), reference: 'P3RT9W', practice_notified: false },
        ],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
    };
    render(<BookedSlotsPage />);
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows[0]).toHaveTextContent('K7MZ4Q');
    expect(rows[0]).toHaveTextContent('Telefon');
    expect(rows[0]).not.toHaveTextContent('Praxis nicht benachrichtigt');
    expect(rows[1]).toHaveTextContent('P3RT9W');
    expect(rows[1]).toHaveTextContent('Online');
    expect(rows[1]).toHaveTextContent('Praxis nicht benachrichtigt');
  });

  it("'Termin eintragen': a type, a date from the calendar, one of its free times; a 409 names its reason in German and the picker asks again", async () => {
    let answer: Reply = { status: 409, body: { type: 'slot-unavailable', reason: 'full', detail: 'This time has just been booked by someone else.' } };
    let looks = 0;
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'GET /api/admin/availability': () => {
        looks++;
        return { status: 200, body: { days: [] } };
      },
      'POST /api/admin/booked-slots': () => answer,
    };
    // Every month answers its first day (the page asks for the month of Berlin's today first) with two free times.
    answerAvailability((from) => {
      looks++;
      return [{ date: from, times: looks > 1 ? ['10:20'] : ['10:00', '10:20'] }];
    });
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await screen.findByText('Keine gebuchten Termine.');
    await user.click(screen.getByRole('button', { name: 'Termin eintragen' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText(/Uhrzeit/, { selector: 'input' })).toBeNull(); // no free typing
    await user.click(await within(dialog).findByRole('button', { name: '10:00 Uhr' }, { timeout: 5000 }));
    // The caller's details: name and phone required, said at the field in German before anything is sent.
    expect(dialog).toHaveTextContent('gelöscht am Ende des Termintags');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(within(dialog).getByLabelText(/^Vorname/)).toHaveAccessibleDescription(/Vornamen/);
    expect(calls.some((c) => c.key === 'POST /api/admin/booked-slots')).toBe(false);
    await user.type(within(dialog).getByLabelText(/^Vorname/), 'Jürgen');
    await user.type(within(dialog).getByLabelText(/^Nachname/), 'Müller');
    await user.type(within(dialog).getByLabelText(/^Telefon/), '0211 4445566');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Diese Zeit ist bereits ausgebucht.');
    const post = calls.find((c) => c.key === 'POST /api/admin/booked-slots');
    expect(post?.body).toEqual({
      appointment_type_id: TYPE.id,
      appointment_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      appointment_time: '10:00',
      first_name: 'Jürgen',
      last_name: 'Müller',
      phone: '0211 4445566',
      language: 'de',
    });
    // The picker asked again: 10:00 is gone.
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: '10:00 Uhr' })).toBeNull(), { timeout: 5000 });
    answer = { status: 201, body: { ...slot('n', '2030-01-08', '10:20'), source: 'phone', reference: 'Q2W3E4', patient: caller } };
    await user.click(await within(dialog).findByRole('button', { name: '10:20 Uhr' }, { timeout: 5000 }));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Termin eingetragen (Buchungsnummer Q2W3E4)')).toBeInTheDocument();
  }, 30_000);

  it("'Termin eintragen' on a public holiday: the picker names it; saving warns in German, and only the confirmation books", async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/booked-slots': (body) =>
        (body as { confirm_holiday?: boolean }).confirm_holiday
          ? { status: 201, body: { ...slot('n', '2026-12-25', '10:00'), source: 'phone', reference: 'F3T4G5', patient: caller } }
          : { status: 409, body: { type: 'slot-unavailable', reason: 'holiday', holiday: { date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true }, detail: 'Am 25.12.2026 …' } },
    };
    // Whatever month is asked, its first day is a closed holiday with a free time (staff may book it after the warning).
    answerAvailability(
      (from) => [{ date: from, times: ['10:00'] }],
      (from) => [{ date: from, name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true, closed: true }],
    );
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await screen.findByText('Keine gebuchten Termine.');
    await user.click(screen.getByRole('button', { name: 'Termin eintragen' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByTestId('picker-holiday', {}, { timeout: 5000 })).toHaveTextContent('Feiertag: 1. Weihnachtstag. Die Praxis ist geschlossen');
    expect(within(dialog).getByRole('button', { name: /Feiertag: 1\. Weihnachtstag, geschlossen/ })).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: '10:00 Uhr' }));
    await user.type(within(dialog).getByLabelText(/^Vorname/), 'Jürgen');
    await user.type(within(dialog).getByLabelText(/^Nachname/), 'Müller');
    await user.type(within(dialog).getByLabelText(/^Telefon/), '0211 4445566');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    const warning = await within(dialog).findByRole('alert', {}, { timeout: 5000 });
    expect(warning).toHaveTextContent('Der 25.12.2026 ist ein gesetzlicher Feiertag (1. Weihnachtstag)');
    expect(calls.filter((c) => c.key === 'POST /api/admin/booked-slots')).toHaveLength(1);
    // The time stays chosen: confirming sends the same booking with confirm_holiday.
    expect(within(dialog).getByRole('button', { name: '10:00 Uhr' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(warning).getByRole('button', { name: 'Trotzdem an diesem Tag buchen' }));
    expect(await screen.findByText('Termin eingetragen (Buchungsnummer F3T4G5)')).toBeInTheDocument();
    const posts = calls.filter((c) => c.key === 'POST /api/admin/booked-slots');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.body).not.toHaveProperty('confirm_holiday');
    expect(posts[1]!.body).toMatchObject({ appointment_time: '10:00', confirm_holiday: true });
  }, 30_000);

  // This month's answer is held back (a slow connection); staff go on to next month meanwhile.
  it.each(['turn to next month', 'pick a date of next month'])("'Termin eintragen': staff %s while the first free date is searched; the search does not snap back", async (what) => {
    const thisMonth = berlinToday().slice(0, 7);
    const next = nextMonth(thisMonth);
    const chosen = `${next}-10`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
    };
    let answered = false;
    answerAvailability(async (from) => {
      if (from.startsWith(thisMonth)) {
        await held;
        answered = true;
      }
      return [{ date: from.startsWith(thisMonth) ? from : chosen, times: ['10:00'] }];
    });
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await screen.findByText('Keine gebuchten Termine.');
    await user.click(screen.getByRole('button', { name: 'Termin eintragen' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: /nächsten Monat/ }));
    const caption = monthCaption(next);
    expect(await within(dialog).findByRole('grid', { name: caption })).toBeInTheDocument();
    const timesOfChosen = `Freie Uhrzeiten am ${formatLongDate(chosen, 'de')}`;
    if (what.startsWith('pick')) {
      const day = await within(dialog).findByRole('button', { name: new RegExp(formatLongDate(chosen, 'de')) });
      await waitFor(() => expect(day).toBeEnabled());
      await user.click(day);
      expect(await within(dialog).findByText(timesOfChosen)).toBeInTheDocument();
    }
    release();
    // This month's first free date arrives and is taken in (nothing on screen
    // shows it: that is the point); the calendar stays where staff are.
    await waitFor(() => expect(answered).toBe(true));
    await act(async () => {});
    expect(within(dialog).getByRole('grid', { name: caption })).toBeInTheDocument();
    if (what.startsWith('pick')) expect(within(dialog).getByText(timesOfChosen)).toBeInTheDocument();
    else expect(within(dialog).getByText('Bitte zuerst ein Datum wählen.')).toBeInTheDocument();
  });

  it('shows a practice cancellation struck through with whether the patient was told, without actions', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [
          { ...slot('a', '2030-01-08', '09:00'), reference: 'K7MZ4Q', status: 'cancelled_by_practice', patient_notice: 'delivered' },
          { ...slot('b', '2030-01-08', '09:20'), reference: 'P3RT9W', status: 'cancelled_by_practice', patient_notified: false, needs_call: true, patient_notice: 'none', source: 'phone', patient: caller },
          slot('c', '2030-01-09', '08:20'),
        ],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
    };
    render(<BookedSlotsPage />);
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows[0]).toHaveTextContent('Von der Praxis abgesagt');
    expect(rows[0]).toHaveTextContent('E-Mail zugestellt');
    expect(rows[0]!.querySelector('td')).toHaveClass('line-through');
    // No actions on a cancellation: the only button opens the contact details.
    expect(within(rows[0]!).getAllByRole('button').map((b) => b.textContent)).toEqual(['Kontaktdaten']);
    // Kept until the day's end so staff can call: name and phone, and the call still owed (docs/decisions/035).
    expect(rows[1]).toHaveTextContent('Müller, Jürgen');
    expect(rows[1]).toHaveTextContent('keine E-Mail – bitte anrufen: 0211 4445566');
    for (const link of within(rows[1]!).getAllByRole('link', { name: '0211 4445566' })) expect(link).toHaveAttribute('href', 'tel:02114445566');
    expect(within(rows[1]!).getByRole('button', { name: 'P3RT9W: Patient erreicht' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Termin Check-up, 09.01.2030 08:20 Uhr absagen' })).toBeInTheDocument();
    // Every shown row counts, and the cancelled among them are named (docs/decisions/041).
    expect(screen.getByText('Angezeigte Termine', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^3\s*davon 2 abgesagt$/);
  });

  it('a bounced email asks for a call; "Patient erreicht" clears it and tells the server', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [{ ...slot('b', '2030-01-08', '09:00'), reference: 'B0UNC3', patient_notified: false, needs_call: true, patient_notice: 'bounced' }],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'PUT /api/admin/booked-slots/b/informed': () => ({
        status: 200,
        body: { id: 'b', reference: 'B0UNC3', needs_call: false, informed: { by: 'empfang@praxis.example', at: '2030-01-07T09:42:00.000Z' } },
      }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    const row = (await screen.findAllByRole('row'))[1]!;
    expect(row).toHaveTextContent('E-Mail nicht zugestellt – bitte anrufen: 0211 5550123');
    await user.click(within(row).getByRole('button', { name: 'B0UNC3: Patient erreicht' }));
    expect(await screen.findByText('B0UNC3: als erreicht vermerkt')).toBeInTheDocument();
    expect(calls.some((c) => c.key === 'PUT /api/admin/booked-slots/b/informed')).toBe(true);
    expect(row).not.toHaveTextContent('bitte anrufen');
    expect(within(row).queryByRole('button', { name: 'B0UNC3: Patient erreicht' })).toBeNull();
    // Who marked it and when (Berlin time), as the server keeps it.
    expect(row).toHaveTextContent('Patient erreicht – empfang@praxis.example, 07.01.2030, 10:42');
  });

  it('shows who marked a patient reached and when, as the list answers it after a reload', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [{ ...slot('b', '2030-01-08', '09:00'), reference: 'B0UNC3', patient_notice: 'bounced', informed: { by: 'anna@praxis.example', at: '2030-01-07T15:05:00.000Z' } }],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const row = (await screen.findAllByRole('row'))[1]!;
    expect(row).toHaveTextContent('Patient erreicht – anna@praxis.example, 07.01.2030, 16:05');
    expect(row).not.toHaveTextContent('bitte anrufen');
  });

  it('"Absagen" sends the message, refuses a bidi character at the field, and says when staff must call', async () => {
    let answer: Reply = { status: 200, body: { id: 'a', reference: 'ABCDEF', patient_notified: false } };
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [slot('a', '2030-01-08', '09:00')] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/booked-slots/a/cancel': () => answer,
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Termin Check-up, 08.01.2030 09:00 Uhr absagen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Termin absagen' });
    expect(dialog).toHaveTextContent('erhält eine E-Mail');
    const field = within(dialog).getByLabelText('Nachricht an den Patienten (optional)');
    await user.type(field, 'Krank \u202e');
    await user.click(within(dialog).getByRole('button', { name: 'Termin absagen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Richtungszeichen');
    expect(calls.some((c) => c.key === 'POST /api/admin/booked-slots/a/cancel')).toBe(false);
    await user.clear(field);
    await user.type(field, 'Die Ärztin ist erkrankt.');
    await user.click(within(dialog).getByRole('button', { name: 'Termin absagen' }));
    expect(await screen.findByText('Keine E-Mail an den Patienten: bitte telefonisch informieren (Buchungsnummer ABCDEF).')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/admin/booked-slots/a/cancel')?.body).toEqual({ message: 'Die Ärztin ist erkrankt.' });
    answer = { status: 404, body: { detail: 'Unknown booked slot.' } };
  });

  it('"Absagen" with a message that repeats the type asks first (email is not confidential) and sends it with confirm: true', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [slot('a', '2030-01-08', '09:00')] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/booked-slots/a/cancel': (body) =>
        (body as { confirm?: boolean }).confirm
          ? { status: 200, body: { id: 'a', reference: 'ABCDEF', patient_notified: true, patient_phone: null } }
          : { status: 409, body: { type: 'message-names-details', status: 409, names: ['type'] } },
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Termin Check-up, 08.01.2030 09:00 Uhr absagen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Termin absagen' });
    await user.type(within(dialog).getByLabelText('Nachricht an den Patienten (optional)'), 'Ihr Check-up entfällt.');
    await user.click(within(dialog).getByRole('button', { name: 'Termin absagen' }));
    const question = await screen.findByRole('alertdialog', { name: 'Nachricht nennt Einzelheiten' });
    expect(question).toHaveTextContent('Die Nachricht nennt die Terminart.');
    expect(question).toHaveTextContent('E-Mail ist nicht vertraulich');
    await user.click(within(question).getByRole('button', { name: 'Trotzdem senden' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.key === 'POST /api/admin/booked-slots/a/cancel').map((c) => c.body)).toEqual([
        { message: 'Ihr Check-up entfällt.' },
        { message: 'Ihr Check-up entfällt.', confirm: true },
      ]),
    );
    expect(await screen.findByText('Termin ABCDEF abgesagt')).toBeInTheDocument();
  });

  it('a phone booking without email: the list shows the name, the opened booking its phone; "Absagen" shows the number to call, before and after', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({ status: 200, body: [{ ...slot('p', '2030-01-08', '09:00'), source: 'phone', patient: caller }] }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/booked-slots/p/cancel': () => ({ status: 200, body: { id: 'p', reference: 'ABCDEF', patient_notified: false, patient_phone: '0211 4445566' } }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    expect(await screen.findByText('Müller, Jürgen')).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Kontaktdaten von Müller, Jürgen' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: '0211 4445566' })).toHaveAttribute('href', 'tel:02114445566');
    expect(screen.getByText('keine E-Mail-Adresse')).toBeInTheDocument();
    // On a row of its own under the booking, over every column, so an address has the table's width.
    const details = screen.getByRole('link', { name: '0211 4445566' }).closest('tr')!;
    expect(details).toHaveAttribute('id', toggle.getAttribute('aria-controls'));
    expect(details.querySelectorAll('td')).toHaveLength(1);
    expect(details.querySelector('td')).toHaveAttribute('colspan', '9');
    expect(details.querySelector('td')).not.toHaveAttribute('data-label');
    await user.click(toggle);
    expect(screen.queryByRole('link', { name: '0211 4445566' })).toBeNull();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Termin Check-up, 08.01.2030 09:00 Uhr absagen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Termin absagen' });
    expect(dialog).toHaveTextContent('Bitte telefonisch informieren: 0211 4445566');
    expect(within(dialog).queryByLabelText('Nachricht an den Patienten (optional)')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Termin absagen' }));
    expect(await screen.findByText('Bitte telefonisch informieren: 0211 4445566')).toBeInTheDocument();
  });

  it('"Patient suchen": the hit opens its booking in the list; the query never goes into the address', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [slot('a', '2030-01-08', '09:00'), { ...slot('p', '2030-01-09', '09:00'), source: 'phone', reference: 'Q2W3E4', patient: caller }],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'GET /api/admin/patients': () => ({
        status: 200,
        body: [{ id: 'p', reference: 'Q2W3E4', appointment_date: '2030-01-09', appointment_time: '09:00', appointment_type_id: TYPE.id, type_name: 'Check-up', source: 'phone', first_name: 'Jürgen', last_name: 'Müller', birth_date: null }],
      }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    await screen.findByText('Müller, Jürgen');
    await user.type(screen.getByRole('searchbox', { name: 'Patient suchen' }), 'muller');
    await user.click(screen.getByRole('button', { name: 'Suchen' }));
    expect(calls.map((c) => c.key)).toContain('GET /api/admin/patients?q=muller');
    const hit = await screen.findByRole('button', { name: 'Termin von Müller, Jürgen am 09.01.2030, 09:00 Uhr öffnen' });
    // The result line says how the booking came in, in full.
    expect(within(hit).getByText('Telefonbuchung')).toBeVisible();
    await user.click(hit);
    // Only that day is listed now, and the booking is open with its phone.
    await waitFor(() => expect(screen.queryByText('Mustermann, Erika')).toBeNull());
    expect(screen.getByRole('link', { name: '0211 4445566' })).toBeVisible();
    expect(window.location.search).not.toContain('muller');
  });

  it('"Patient suchen": "Angezeigte Termine" counts the rows the day of the hit shows, also when the booking of a notification was open', async () => {
    window.history.replaceState(null, '', '/admin/booked-slots?buchung=aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    const linked = { ...slot('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '2030-01-08', '09:00'), reference: 'L1NK3D' };
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [
          linked,
          { ...slot('p', '2030-01-09', '09:00'), source: 'phone', reference: 'Q2W3E4', patient: caller },
          { ...slot('c', '2030-01-09', '09:20'), reference: 'C4NC3L', status: 'cancelled_by_practice' },
          { ...slot('d', '2030-01-09', '09:40'), reference: 'D3CK3R' },
        ],
      }),
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'GET /api/admin/patients': () => ({
        status: 200,
        body: [{ id: 'p', reference: 'Q2W3E4', appointment_date: '2030-01-09', appointment_time: '09:00', appointment_type_id: TYPE.id, type_name: 'Check-up', source: 'phone', first_name: 'Jürgen', last_name: 'Müller', birth_date: null }],
      }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    const shownCount = () => screen.getByText('Angezeigte Termine', { selector: 'dt' }).nextElementSibling;
    await screen.findByText('Die Buchung aus der Benachrichtigung der Praxis.');
    await waitFor(() => expect(shownCount()).toHaveTextContent(/^1$/));
    await user.type(screen.getByRole('searchbox', { name: 'Patient suchen' }), 'muller');
    await user.click(screen.getByRole('button', { name: 'Suchen' }));
    await user.click(await screen.findByRole('button', { name: 'Termin von Müller, Jürgen am 09.01.2030, 09:00 Uhr öffnen' }));
    // The hit's day, all of it: three rows, the struck-through cancellation among them, and the figure says three.
    await waitFor(() => expect(screen.getAllByRole('row').slice(1).filter((r) => !r.hasAttribute('data-details'))).toHaveLength(3));
    expect(shownCount()).toHaveTextContent(/^3\s*davon 1 abgesagt$/);
    expect(screen.queryByText('L1NK3D')).toBeNull();
    expect(window.location.search).not.toContain('buchung');
  });

  it('a booking a colleague cancelled meanwhile: "Absagen" and "Verschieben" say so in German and show the list as it now is', async () => {
    const conflict: Reply = { status: 409, body: { type: 'conflict', title: 'Conflict', detail: 'This appointment has already been cancelled.' } };
    // Within staff's horizon, so the move's calendar opens on its month.
    const day = addDaysToDate(berlinToday(), 10);
    const named = (action: string) => `Termin Check-up, ${formatShortDate(day)} 09:00 Uhr ${action}`;
    let lists = 0;
    replies = {
      'GET /api/admin/booked-slots': () => {
        lists++;
        return { status: 200, body: [slot('a', day, '09:00')] };
      },
      'GET /api/admin/appointment-types': () => ({ status: 200, body: [TYPE] }),
      'POST /api/admin/booked-slots/a/cancel': () => conflict,
      'POST /api/admin/booked-slots/a/move': () => conflict,
    };
    answerAvailability(() => [{ date: day, times: ['09:00', '10:00'] }]);
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    const already = 'Dieser Termin ist bereits abgesagt. Die Liste zeigt jetzt den aktuellen Stand.';

    await user.click(await screen.findByRole('button', { name: named('absagen') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Termin absagen' }));
    expect(await screen.findByText(already)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(lists).toBe(2));

    await user.click(screen.getByRole('button', { name: named('verschieben') }));
    const dialog = await screen.findByRole('dialog', { name: 'Termin verschieben' });
    await user.click(await within(dialog).findByRole('button', { name: '10:00 Uhr' }, { timeout: 5000 }));
    await user.click(within(dialog).getByRole('button', { name: 'Verschieben' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(lists).toBe(3));
    expect(screen.getAllByText(already).length).toBeGreaterThan(0);
    expect(screen.queryByText(/already|Conflict/)).not.toBeInTheDocument();
  }, 20_000);

  it('counts shown slots and distinct days, filters by type name; a failed cancellation says so', async () => {
    replies = {
      'GET /api/admin/booked-slots': () => ({
        status: 200,
        body: [slot('a', '2030-01-08', '09:00'), slot('b', '2030-01-08', '09:20', 'Impfung'), slot('c', '2030-01-09', '08:20')],
      }),
      'POST /api/admin/booked-slots/a/cancel': () => ({ status: 404, body: { detail: 'Unknown booked slot.' } }),
    };
    renderWithToasts(<BookedSlotsPage />);
    const user = userEvent.setup();
    const counter = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    await screen.findAllByRole('row');
    expect(counter('Angezeigte Termine')).toHaveTextContent('3');
    expect(counter('Verschiedene Tage')).toHaveTextContent('2');
    await user.type(screen.getByLabelText('Nach Terminart suchen'), 'check');
    expect(counter('Angezeigte Termine')).toHaveTextContent('2');
    expect(screen.getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual([
      expect.stringContaining('08.01.2030'),
      expect.stringContaining('09.01.2030'),
    ]);
    await user.click(screen.getByRole('button', { name: 'Termin Check-up, 08.01.2030 09:00 Uhr absagen' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Termin absagen' }));
    expect(await screen.findByText('Termin konnte nicht abgesagt werden.')).toBeInTheDocument();
    expect(screen.getByText('Den Eintrag gibt es nicht (mehr). Bitte laden Sie die Seite neu.')).toBeInTheDocument();
    expect(screen.queryByText(/Unknown/)).not.toBeInTheDocument();
  });
});
