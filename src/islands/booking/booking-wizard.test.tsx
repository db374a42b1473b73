/**
 * The wizard's failure paths and toasts with a stubbed API,
 * in both languages. The happy paths run end to end in tests/e2e.
 */
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { formatLongDate } from '../../lib/dates';
import { createI18n } from '../../i18n/i18n';
import BookingWizard, { BookingWizardWithI18n } from './booking-wizard';
import { nextMonth } from './use-availability';
import { monthCaption } from '../../../tests/helpers/month-caption';

// The calendar renders slowly when the two shared cores are busy: wait longer than the defaults.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const TYPE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Check-up',
  name_en: 'Health check',
  description: 'Vorsorge',
  description_en: 'Prevention',
  max_advance_days: 14,
  slot_duration_minutes: 20,
  max_slots_per_time: 1,
  price_cents: null,
};

type Route = (url: string, init?: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * An availability answer with only the days the request asked for (from–to),
 * as the server gives them: at a month's end "tomorrow" is next month's, and
 * the wizard finds it by asking for that month.
 */
async function onlyAskedDays(url: string, response: Response): Promise<Response> {
  const body = response.ok ? ((await response.clone().json().catch(() => null)) as { days?: Array<{ date: string }> } | null) : null;
  if (!body?.days) return response;
  const asked = new URL(url, 'http://localhost').searchParams;
  const [from, to] = [asked.get('from') ?? '', asked.get('to') ?? '9999'];
  return json({ ...body, days: body.days.filter((d) => d.date >= from && d.date <= to) }, response.status);
}

function stubApi(routes: { types?: Route; availability?: Route; bookings?: Route }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/appointment-types')) return (routes.types ?? (() => json([TYPE])))(url, init);
    if (url.startsWith('/api/availability')) {
      const date = addDaysToDate(berlinToday(), 1);
      return onlyAskedDays(url, await (routes.availability ?? (() => json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date, times: ['09:00', '09:20'] }] })))(url, init));
    }
    if (url.startsWith('/api/bookings')) return routes.bookings!(url, init);
    throw new Error(`unexpected ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function reachDetails(lang: 'de' | 'en' = 'de', { remind = false, time = '09:00', typeName = lang === 'de' ? 'Check-up' : 'Health check' } = {}) {
  render(<BookingWizard lang={lang} />);
  fireEvent.click(await screen.findByRole('button', { name: `${lang === 'de' ? 'Auswählen' : 'Select'}: ${typeName}` }));
  fireEvent.click(await screen.findByRole('button', { name: lang === 'de' ? `${time} Uhr` : time }));
  fireEvent.click(screen.getByRole('button', { name: lang === 'de' ? 'Weiter' : 'Next', exact: true } as never));
  // Step 3 is loaded on demand: wait for its form before filling it in.
  await screen.findByLabelText(new RegExp(`^${lang === 'de' ? 'Vorname' : 'First name'}`));
  // Whole label (the field's name and its required mark): "Email reminder …" is another field.
  const label = (de: string, en: string) => screen.getByLabelText(new RegExp(`^${lang === 'de' ? de : en}\\s*\\*?$`));
  fireEvent.change(label('Vorname', 'First name'), { target: { value: 'Erika' } });
  fireEvent.change(label('Nachname', 'Last name'), { target: { value: 'Mustermann' } });
  fireEvent.change(label('Geburtsdatum', 'Date of birth'), { target: { value: '12.08.1964' } });
  fireEvent.change(label('Telefon', 'Phone'), { target: { value: '+49 211 5550123' } });
  fireEvent.change(label('E-Mail', 'Email'), { target: { value: 'erika@example.org' } });
  fireEvent.click(screen.getByRole('checkbox', { name: lang === 'de' ? /Datenschutzerklärung/ : /privacy policy/ }));
  if (remind) {
    fireEvent.click(screen.getByRole('checkbox', { name: lang === 'de' ? 'Erinnerung per E-Mail 24 Stunden vorher' : 'Email reminder 24 hours before' }));
  }
  fireEvent.click(screen.getByRole('button', { name: lang === 'de' ? 'Termin verbindlich buchen' : 'Book appointment (binding)' }));
}

const booked = (email: unknown) =>
  json({ booking: { id: 'b', appointment_type_id: TYPE.id, appointment_date: '2030-01-01', appointment_time: '09:00' }, email }, 201);

beforeAll(async () => {
  // The wizard loads steps 2, 3 and success on demand. Transforming them takes vitest
  // longer than a findBy* waits, so they are loaded once here; the wizard's own
  // import() then resolves from the module cache.
  await Promise.all([import('./step-date-time'), import('./step-details'), import('./step-success')]);
}, 60_000);

beforeEach(() => {
  window.scrollTo = vi.fn() as never;
  // A fresh tab: nothing typed in an earlier test is waiting in sessionStorage (details-storage.ts).
  sessionStorage.clear();
  // The wizard keeps its step in the URL; each test starts on a fresh page.
  window.history.replaceState(null, '', '/termin');
});

afterEach(async () => {
  // Sonner keeps its toasts in a module-wide store: empty it so no toast outlives its test.
  toast.dismiss();
  cleanup();
  await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0));
  vi.unstubAllGlobals();
});

/** The wizard on step 2 while the first free date's answer (tomorrow, 09:00) is held back; returns what lets it through. */
async function onStep2WithTheAnswerHeld(): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const date = addDaysToDate(berlinToday(), 1);
  stubApi({
    availability: async () => {
      await held;
      return json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date, times: ['09:00'] }] });
    },
  });
  render(<BookingWizard lang="de" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
  await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' });
  await waitFor(() => expect(window.location.search).toBe(`?schritt=2&typ=${TYPE.id}`));
  return release;
}

describe('taking over from the page’s start-up script (wizard-boot.ts)', () => {
  it('shows the handed-over types without loading them again', async () => {
    const fetchMock = stubApi({});
    render(<BookingWizardWithI18n lang="de" i18n={createI18n('de')} handover={{ types: [TYPE], chosenTypeId: null }} />);
    expect(screen.getByRole('button', { name: 'Auswählen: Check-up' })).toBeTruthy();
    await act(async () => {}); // effects and what they started have run
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/appointment-types'))).toHaveLength(0);
  });

  it('moves on with the card chosen before it was there', async () => {
    stubApi({});
    render(<BookingWizardWithI18n lang="en" i18n={createI18n('en')} handover={{ types: [TYPE], chosenTypeId: TYPE.id }} />);
    expect(await screen.findByRole('heading', { name: 'Choose date and time' })).toBeTruthy();
    // Step 2 of that type; the first free date joins the address as soon as its times are in.
    expect(window.location.search).toMatch(new RegExp(`^\\?step=2&type=${TYPE.id}(&date=\\d{4}-\\d{2}-\\d{2})?$`));
  });
});

describe('loading consultation types', () => {
  it('shows three placeholder cards while loading', async () => {
    let release!: (r: Response) => void;
    stubApi({ types: () => new Promise<Response>((r) => (release = r)) });
    render(<BookingWizard lang="de" />);
    expect(screen.getAllByTestId('type-placeholder')).toHaveLength(3);
    release(json([TYPE]));
    expect(await screen.findByRole('heading', { name: 'Check-up' })).toBeTruthy();
    expect(screen.queryAllByTestId('type-placeholder')).toHaveLength(0);
  });

  it('an error answer gives the booking-error toast with the load error', async () => {
    stubApi({ types: () => json({ type: 'internal-error' }, 500) });
    render(<BookingWizard lang="en" />);
    expect(await screen.findByText('Booking error')).toBeTruthy();
    expect(await screen.findByText('Consultation types could not be loaded.')).toBeTruthy();
  });

  it('a network failure gives the unexpected-error text', async () => {
    stubApi({ types: () => Promise.reject(new TypeError('Failed to fetch')) });
    render(<BookingWizard lang="de" />);
    expect(await screen.findByText('Ein unerwarteter Fehler ist aufgetreten.')).toBeTruthy();
  });
});

describe('loading free times', () => {
  it('a failure gives the time-slots toast', async () => {
    stubApi({ availability: () => json({ type: 'x' }, 500) });
    render(<BookingWizard lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Select: Health check' }));
    expect(await screen.findByText('Time slots could not be loaded.')).toBeTruthy();
  });

  it('a date without free times says so', async () => {
    const date = addDaysToDate(berlinToday(), 1);
    stubApi({ availability: () => json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date, times: [] }] }) });
    render(<BookingWizard lang="de" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
    expect(await screen.findByText('Für diesen Tag sind keine Termine mehr frei.')).toBeTruthy();
  });
});

describe('a month turned or a date picked while the first free date is still searched', () => {
  // This month's answer is held back (a slow connection); the patient goes on to next month.
  it.each(['turns to next month', 'picks a date of next month'])('the patient %s: the search does not snap back over it', async (what) => {
    const thisMonth = berlinToday().slice(0, 7);
    const next = nextMonth(thisMonth);
    const chosen = `${next}-10`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    stubApi({
      types: () => json([{ ...TYPE, max_advance_days: 60 }]),
      availability: async (url) => {
        const from = new URL(url, 'http://localhost').searchParams.get('from')!;
        if (from.startsWith(thisMonth)) await held;
        return json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date: from.startsWith(thisMonth) ? from : chosen, times: ['09:00'] }] });
      },
    });
    render(<BookingWizard lang="de" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Zum nächsten Monat' }));
    const caption = monthCaption(next);
    expect(await screen.findByRole('grid', { name: caption })).toBeTruthy();
    if (what.startsWith('picks')) {
      const day = (await screen.findByRole('button', { name: new RegExp(formatLongDate(chosen, 'de')) })) as HTMLButtonElement;
      await waitFor(() => expect(day.disabled).toBe(false));
      fireEvent.click(day);
      await waitFor(() => expect(new URLSearchParams(window.location.search).get('datum')).toBe(chosen));
    }
    release();
    // This month's first free date arrives: the step stops searching (the
    // chosen date's times, or the hint to choose a date, show in the same
    // render that would snap back) and the calendar stays where the patient is.
    if (what.startsWith('picks')) expect(await screen.findByRole('button', { name: '09:00 Uhr' })).toBeTruthy();
    else expect(await screen.findByText('Bitte wählen Sie zuerst ein Datum.')).toBeTruthy();
    expect(screen.getByRole('grid', { name: caption })).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('datum')).toBe(what.startsWith('picks') ? chosen : null);
  });
});

describe('booking outcomes', () => {
  it.each([
    ['full success', { success: true }, 'Eine Bestätigung wurde an Ihre E-Mail-Adresse gesendet.'],
    ['a patient email problem', { success: false, patientEmailError: 'Zustellung fehlgeschlagen.' }, 'Termin gebucht, aber beim E-Mail-Versand gab es ein Problem: Zustellung fehlgeschlagen.'],
    ['email not configured', { success: false, error: 'Kein Versand.' }, 'Termin gebucht. Die E-Mail konnte nicht versendet werden: Kein Versand.'],
    ['email failed without a reason', { success: false }, 'Termin gebucht. Die E-Mail konnte nicht versendet werden: Unbekannter Fehler'],
    ['no email report', undefined, 'Termin gebucht. E-Mail-Versand fehlgeschlagen (Serverfehler).'],
  ])('%s: success toast and the success screen', async (_label, email, description) => {
    stubApi({ bookings: () => booked(email) });
    await reachDetails('de');
    expect(await screen.findByText('Termin erfolgreich gebucht!')).toBeTruthy();
    expect(await screen.findByText(description)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeTruthy();
  });

  it('the success screen shows the booking reference', async () => {
    stubApi({
      bookings: () =>
        json({ booking: { id: 'b', appointment_type_id: TYPE.id, appointment_date: '2030-01-01', appointment_time: '09:00', reference: 'K7MZ4Q' }, email: { success: true } }, 201),
    });
    await reachDetails('de');
    expect(await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeTruthy();
    expect(screen.getByText('Buchungsnummer')).toBeTruthy();
    expect(screen.getByTestId('booking-reference').textContent).toBe('K7MZ4Q');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['de', 'Die Praxis konnte über Ihre Buchung nicht benachrichtigt werden. Bitte rufen Sie uns an:'],
    ['en', 'We could not notify the practice of your booking. Please call us:'],
  ] as const)('%s: when the practice was not notified, the success screen asks the patient to call', async (lang, text) => {
    stubApi({ bookings: () => booked({ success: false, practiceEmailError: 'x' }) });
    await reachDetails(lang);
    const alert = await screen.findByText(new RegExp(`^${text}`));
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toMatch(/\d{3}/);
  });

  it('shows the busy label while booking', async () => {
    let release!: (r: Response) => void;
    stubApi({ bookings: () => new Promise<Response>((r) => (release = r)) });
    await reachDetails('en');
    const busy = await screen.findByRole('button', { name: 'Booking appointment...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    release(booked({ success: true }));
    expect(await screen.findByRole('heading', { name: 'Your appointment is booked!' })).toBeTruthy();
  });

  it('a network failure gives the booking-error toast with the unexpected-error text and stays', async () => {
    stubApi({ bookings: () => Promise.reject(new TypeError('Failed to fetch')) });
    await reachDetails('en');
    expect(await screen.findByText('Booking error')).toBeTruthy();
    expect(await screen.findByText('An unexpected error occurred. Please try again later.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your details' })).toBeTruthy();
  });

  it.each([
    ['de', 'Zu viele Buchungen', 'Von diesem Anschluss oder für diese E-Mail-Adresse wurden in kurzer Zeit zu viele Termine gebucht. Bitte versuchen Sie es in 1 Stunde erneut oder rufen Sie uns an.', 'Ihre Daten'],
    ['en', 'Too many bookings', 'Too many appointments were booked from this connection or for this email address in a short time. Please try again in 1 hour or call us.', 'Your details'],
  ] as const)('a 429 rate-limited answer gives the too-many-bookings message naming the wait (Retry-After) in %s and keeps the form', async (lang, title, text, heading) => {
    stubApi({
      bookings: () =>
        new Response(JSON.stringify({ type: 'rate-limited', title: 'Too Many Requests', status: 429 }), {
          status: 429,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '3600' },
        }),
    });
    await reachDetails(lang);
    expect(await screen.findByText(title)).toBeTruthy();
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('heading', { name: heading })).toBeTruthy();
    expect(screen.queryByText(lang === 'de' ? 'Buchungsfehler' : 'Booking error')).toBeNull();
  });

  it('sends the birth date as yyyy-MM-dd with the page language', async () => {
    const fetchMock = stubApi({ bookings: () => booked({ success: true }) });
    await reachDetails('en');
    await screen.findByRole('heading', { name: 'Your appointment is booked!' });
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/bookings')!;
    expect(JSON.parse(String(call[1]!.body))).toMatchObject({
      appointment_type_id: TYPE.id,
      appointment_time: '09:00',
      birth_date: '1964-08-12',
      consent: true,
      language: 'en',
    });
  });

  it.each(['de', 'en'] as const)('offers an unticked reminder box that says what is kept (%s) and sends reminder: false', async (lang) => {
    const fetchMock = stubApi({ bookings: () => booked({ success: true }) });
    render(<BookingWizard lang={lang} />);
    fireEvent.click(await screen.findByRole('button', { name: lang === 'de' ? 'Auswählen: Check-up' : 'Select: Health check' }));
    fireEvent.click(await screen.findByRole('button', { name: lang === 'de' ? '09:00 Uhr' : '09:00' }));
    fireEvent.click(screen.getByRole('button', { name: lang === 'de' ? 'Weiter' : 'Next', exact: true } as never));
    const box = (await screen.findByRole('checkbox', {
      name: lang === 'de' ? 'Erinnerung per E-Mail 24 Stunden vorher' : 'Email reminder 24 hours before',
    })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    const hint = document.getElementById(box.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toMatch(lang === 'de' ? /nach einer Verschiebung/ : /after a move/);
    // Step 3 says in one sentence what every online booking keeps, why and until when.
    expect(screen.getByText(lang === 'de' ? /Nur unser Praxisteam sieht sie.*am Ende Ihres Termintags gelöscht/ : /Only our practice team sees them.*deleted at the end of the day of your appointment/)).toBeTruthy();
    cleanup();
    window.history.replaceState(null, '', '/termin'); // the first render moved the URL to step 3
    await reachDetails(lang);
    await screen.findByRole('heading', { name: lang === 'de' ? 'Ihr Termin ist gebucht!' : 'Your appointment is booked!' });
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/bookings')!;
    expect(JSON.parse(String(call[1]!.body)).reminder).toBe(false);
  });

  it('sends reminder: true when the box is ticked', async () => {
    const fetchMock = stubApi({ bookings: () => booked({ success: true }) });
    await reachDetails('de', { remind: true });
    await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' });
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/bookings')!;
    expect(JSON.parse(String(call[1]!.body)).reminder).toBe(true);
  });
});

describe('a time taken meanwhile (409 slot-unavailable)', () => {
  it.each([
    ['de', 'Diese Uhrzeit wurde gerade eben von jemand anderem gebucht', 'Weiter', 'Datum und Uhrzeit wählen', '09:20 Uhr', 'Vorname'],
    ['en', 'Someone else has just booked this time', 'Next', 'Choose date and time', '09:20', 'First name'],
  ] as const)('%s: says so, returns to step 2 with fresh availability, time cleared, Next disabled, details kept', async (lang, message, next, heading, freeTime, firstName) => {
    const date = addDaysToDate(berlinToday(), 1);
    let taken = false;
    const fetchMock = stubApi({
      availability: () => json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date, times: taken ? ['09:20'] : ['09:00', '09:20'] }] }),
      bookings: () => {
        taken = true;
        return json({ type: 'slot-unavailable', title: 'Slot unavailable', status: 409, detail: 'full' }, 409);
      },
    });
    await reachDetails(lang);
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(screen.getByRole('heading', { name: heading })).toBeTruthy();
    // Availability was asked again and the taken time is gone.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/availability')).length).toBeGreaterThanOrEqual(2));
    await screen.findByRole('button', { name: freeTime });
    expect(screen.queryByRole('button', { name: lang === 'de' ? '09:00 Uhr' : '09:00' })).toBeNull();
    const nextButton = screen.getByRole('button', { name: next, exact: true } as never) as HTMLButtonElement;
    expect(nextButton.disabled).toBe(true);
    expect(screen.queryByText('Booking error')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: freeTime }));
    expect(nextButton.disabled).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(nextButton);
    const first = (await screen.findByLabelText(new RegExp(`^${firstName}`))) as HTMLInputElement;
    expect(first.value).toBe('Erika');
    expect((screen.getByRole('checkbox', { name: lang === 'de' ? /Datenschutzerklärung/ : /privacy policy/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("shows the times the refusal answered, though the month asked again still comes from a stale copy (the CDN's)", async () => {
    const date = addDaysToDate(berlinToday(), 1);
    const later = addDaysToDate(berlinToday(), 2);
    // The CDN still has the month as it was before the time was taken.
    stubApi({
      availability: () => json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date, times: ['09:00', '09:20'] }, { date: later, times: ['10:00'] }] }),
      bookings: () =>
        json(
          {
            type: 'slot-unavailable',
            title: 'Slot unavailable',
            status: 409,
            reason: 'full',
            availability: { from: date, to: addDaysToDate(date, 6), days: [{ date, times: ['09:20'] }] },
          },
          409,
        ),
    });
    await reachDetails('en');
    await screen.findByRole('alert');
    await screen.findByRole('button', { name: '09:20' });
    // The taken time is not offered again, whatever the copy said.
    expect(screen.queryByRole('button', { name: '09:00' })).toBeNull();
  });

  it('another 409 (not slot-unavailable) keeps the generic error on step 3', async () => {
    stubApi({ bookings: () => json({ type: 'conflict', status: 409 }, 409) });
    await reachDetails('en');
    expect(await screen.findByText('The appointment could not be booked. Please try again.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your details' })).toBeTruthy();
  });
});

describe('steps in the browser history', () => {
  it('each step is an entry in the URL; back and forward move between steps', async () => {
    const date = addDaysToDate(berlinToday(), 1);
    stubApi({});
    render(<BookingWizard lang="de" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
    await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' });
    fireEvent.click(await screen.findByRole('button', { name: '09:00 Uhr' }));
    await waitFor(() => expect(window.location.search).toBe(`?schritt=2&typ=${TYPE.id}&datum=${date}&zeit=09%3A00`));
    const length = window.history.length;
    fireEvent.click(screen.getByRole('button', { name: 'Weiter', exact: true } as never));
    await screen.findByRole('heading', { name: 'Ihre Daten' });
    expect(window.location.search).toBe(`?schritt=3&typ=${TYPE.id}&datum=${date}&zeit=09%3A00`);
    expect(window.history.length).toBe(length + 1);
    window.history.back();
    expect(await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeTruthy();
    // Step 2 mounts again and asks for fresh availability: its times follow the heading.
    expect((await screen.findByRole('button', { name: '09:00 Uhr' })).getAttribute('aria-pressed')).toBe('true');
    window.history.forward();
    expect(await screen.findByRole('heading', { name: 'Ihre Daten' })).toBeTruthy();
    window.history.go(-2);
    expect(await screen.findByRole('heading', { name: 'Welche Terminart möchten Sie buchen?' })).toBeTruthy();
  });

  it('an answer arriving while Back is under way never writes step 2 over the entry Back lands on', async () => {
    // A slow connection: the first free date is still searched when the patient presses Back.
    const release = await onStep2WithTheAnswerHeld();
    // Back has moved the location; its popstate event is still on its way.
    window.history.pushState(null, '', '/termin');
    release();
    // The answer lands: step 2 shows the first free date's times.
    expect(await screen.findByRole('button', { name: '09:00 Uhr' })).toBeTruthy();
    expect(window.location.search).toBe('');
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    expect(await screen.findByRole('heading', { name: 'Welche Terminart möchten Sie buchen?' })).toBeTruthy();
    expect(window.location.search).toBe('');
  });

  it('an answer rendered just before Back lands, its effects after the popstate, never writes step 2 over the entry Back lands on', async () => {
    // Seen at a month's end in the evening, where the first free date takes two requests: the
    // times were on the page, Back moved the location and its popstate restored step 1, and only
    // then did the render's effects run and write step 2 with the date over that entry.
    const release = await onStep2WithTheAnswerHeld();
    const writes: string[] = [];
    const { pushState, replaceState } = window.history;
    // Back, between the commit that shows the answer's times (a mutation observer runs right
    // after it) and the effects React runs later: the location moves and popstate arrives.
    const observer = new MutationObserver(() => {
      if (!screen.queryByRole('button', { name: '09:00 Uhr' })) return;
      observer.disconnect();
      window.history.pushState(null, '', '/termin');
      window.history.pushState = (data, unused, url) => (writes.push(`push ${String(url)}`), pushState.call(window.history, data, unused, url));
      window.history.replaceState = (data, unused, url) => (writes.push(`replace ${String(url)}`), replaceState.call(window.history, data, unused, url));
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    });
    observer.observe(document.body, { childList: true, subtree: true });
    try {
      release();
      expect(await screen.findByRole('heading', { name: 'Welche Terminart möchten Sie buchen?' })).toBeTruthy();
      await act(async () => {}); // every effect of both renders has run
      expect(writes.filter((w) => w.includes('schritt=2'))).toEqual([]);
      expect(window.location.search).toBe('');
    } finally {
      observer.disconnect();
      Object.assign(window.history, { pushState, replaceState });
    }
  });

  it('a reload restores type, date and time from the URL (en names), never patient data', async () => {
    const date = addDaysToDate(berlinToday(), 1);
    window.history.replaceState(null, '', `/en/termin?step=3&type=${TYPE.id}&date=${date}&time=09:20`);
    stubApi({});
    render(<BookingWizard lang="en" />);
    expect(await screen.findByRole('heading', { name: 'Your details' })).toBeTruthy();
    expect(screen.getByText('09:20 (20 minutes)')).toBeTruthy();
    expect(screen.getByText('Health check')).toBeTruthy();
    expect(((await screen.findByLabelText(/^First name/)) as HTMLInputElement).value).toBe('');
  });

  it('after a reload on step 3, Back goes to step 2 and then to step 1; typed fields, consent and reminder survive the reload', async () => {
    const date = addDaysToDate(berlinToday(), 1);
    stubApi({});
    render(<BookingWizard lang="de" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
    fireEvent.click(await screen.findByRole('button', { name: '09:00 Uhr' }));
    fireEvent.click(screen.getByRole('button', { name: 'Weiter', exact: true } as never));
    fireEvent.change(await screen.findByLabelText(/^Vorname/), { target: { value: 'Erika' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Datenschutzerklärung/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Erinnerung per E-Mail 24 Stunden vorher' }));
    const step3 = `?schritt=3&typ=${TYPE.id}&datum=${date}&zeit=09%3A00`;
    expect(window.location.search).toBe(step3);
    const entries = window.history.length;

    // The reload: a new page on the same entry (same address, same history state, same tab storage).
    cleanup();
    render(<BookingWizard lang="de" />);
    expect(await screen.findByRole('heading', { name: 'Ihre Daten' })).toBeTruthy();
    expect(((await screen.findByLabelText(/^Vorname/)) as HTMLInputElement).value).toBe('Erika');
    expect((screen.getByRole('checkbox', { name: /Datenschutzerklärung/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Erinnerung per E-Mail 24 Stunden vorher' }) as HTMLInputElement).checked).toBe(true);
    // Starting on the entry wrote nothing: no entry replaced by the plain page, none added.
    expect(window.location.search).toBe(step3);
    expect(window.history.length).toBe(entries);

    window.history.back();
    expect(await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe(`?schritt=2&typ=${TYPE.id}&datum=${date}&zeit=09%3A00`));
    window.history.back();
    expect(await screen.findByRole('heading', { name: 'Welche Terminart möchten Sie buchen?' })).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe(''));
    // Forward leads the same way back up.
    window.history.forward();
    expect(await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeTruthy();
  });

  it('a URL with a time that is no longer free opens step 2 with Next disabled', async () => {
    const date = addDaysToDate(berlinToday(), 1);
    window.history.replaceState(null, '', `/termin?schritt=2&typ=${TYPE.id}&datum=${date}&zeit=11:00`);
    stubApi({});
    render(<BookingWizard lang="de" />);
    expect(await screen.findByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeTruthy();
    await screen.findByRole('button', { name: '09:00 Uhr' });
    await waitFor(() => expect(window.location.search).not.toContain('zeit='));
    expect((screen.getByRole('button', { name: 'Weiter', exact: true } as never) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Back from the success screen starts a new booking, never the booked time ready to send again, also after a reload', async () => {
    stubApi({ bookings: () => booked({ success: true }) });
    await reachDetails('de');
    await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' });
    expect(window.location.search).toBe('');
    const step1 = 'Welche Terminart möchten Sie buchen?';
    for (let i = 0; i < 2; i++) {
      window.history.back();
      expect(await screen.findByRole('heading', { name: step1 })).toBeTruthy();
      await waitFor(() => expect(window.location.search).toBe(''));
      expect((screen.getByRole('button', { name: 'Weiter', exact: true } as never) as HTMLButtonElement).disabled).toBe(true);
    }
    // Forward again: the success entry and the steps after it start afresh too.
    window.history.forward();
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(screen.getByRole('heading', { name: step1 })).toBeTruthy();

    // The success screen reloaded (a new page in the same tab), then Back.
    cleanup();
    window.history.replaceState(null, '', '/termin');
    await reachDetails('de');
    await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' });
    cleanup();
    render(<BookingWizard lang="de" />);
    await screen.findByRole('button', { name: 'Auswählen: Check-up' });
    window.history.back();
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(screen.queryByRole('heading', { name: 'Ihre Daten' })).toBeNull();
    expect(screen.getByRole('heading', { name: step1 })).toBeTruthy();
  });

  it('an unknown type in the URL starts afresh at step 1', async () => {
    window.history.replaceState(null, '', '/termin?schritt=2&typ=22222222-2222-4222-8222-222222222222');
    stubApi({});
    render(<BookingWizard lang="de" />);
    expect(await screen.findByRole('button', { name: 'Auswählen: Check-up' })).toBeTruthy();
    await waitFor(() => expect(window.location.search).toBe(''));
  });
});

describe('offline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('types that cannot load offline: says there is no connection, retry loads them', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let fail = true;
    stubApi({ types: () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : json([TYPE])) });
    render(<BookingWizard lang="en" />);
    expect(await screen.findByText('No internet connection')).toBeTruthy();
    expect(screen.queryByText(/No consultation types can be booked/)).toBeNull();
    expect(screen.queryByText('An unexpected error occurred.')).toBeNull();
    fail = false;
    online.mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Select: Health check' })).toBeTruthy();
  });
});

describe('success screen and type summary', () => {
  const PAID = { ...TYPE, price_cents: 3500 };

  it('shows the price in the summary and on success, the reference when sent, and an .ics download', async () => {
    stubApi({
      types: () => json([PAID]),
      bookings: () =>
        json({ booking: { id: 'bkg-1', appointment_type_id: TYPE.id, appointment_date: '2030-01-01', appointment_time: '09:00', reference: 'HX7-42K' }, email: { success: true } }, 201),
    });
    render(<BookingWizard lang="de" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Auswählen: Check-up' }));
    fireEvent.click(await screen.findByRole('button', { name: '09:00 Uhr' }));
    fireEvent.click(screen.getByRole('button', { name: 'Weiter', exact: true } as never));
    await screen.findByRole('heading', { name: 'Ihre Daten' });
    expect(screen.getByText('35,00 €')).toBeTruthy();
    cleanup();
    window.history.replaceState(null, '', '/termin');
    await reachDetails('de');
    await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' });
    expect(screen.getByText('35,00 €')).toBeTruthy();
    expect(screen.getByText('HX7-42K')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Zum Kalender hinzufügen (.ics)' }) as HTMLAnchorElement;
    expect(link.getAttribute('download')).toBe('termin.ics');
    const ics = decodeURIComponent(link.href.replace(/^data:text\/calendar;charset=utf-8,/, ''));
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toMatch(/UID:bkg-1@/);
    expect(ics).toMatch(/DTSTART;TZID=Europe\/Berlin:\d{8}T090000/);
    expect(ics).toMatch(/DTEND;TZID=Europe\/Berlin:\d{8}T092000/);
  });

  it('without a reference the success screen shows none', async () => {
    stubApi({ bookings: () => booked({ success: true }) });
    await reachDetails('en');
    await screen.findByRole('heading', { name: 'Your appointment is booked!' });
    expect(screen.queryByText('Booking reference')).toBeNull();
    expect(screen.getByRole('link', { name: 'Add to calendar (.ics)' }).getAttribute('download')).toBe('appointment.ics');
  });

  // Only within the asked range, as the server answers: a date in next month is not in this month's answer.
  const availableOn = (date: string, time = '09:00') => (url: string) => {
    const q = new URL(url, 'http://x').searchParams;
    return json({ timezone: 'Europe/Berlin', type: TYPE.id, days: date >= q.get('from')! && date <= q.get('to')! ? [{ date, times: [time] }] : [] });
  };

  it.each([
    ['de', 'Bestätigung an', 'per E-Mail, 24 Stunden vorher', 'Stimmt die E-Mail-Adresse nicht?'],
    ['en', 'Confirmation sent to', 'by email, 24 hours before', 'Is the email address wrong?'],
  ] as const)('%s: shows the address the confirmation went to, what to do if it is wrong, and the reminder asked for', async (lang, sentTo, reminder, wrong) => {
    stubApi({ availability: availableOn(addDaysToDate(berlinToday(), 5)), bookings: () => booked({ success: true }) });
    await reachDetails(lang, { remind: true });
    await screen.findByRole('heading', { name: lang === 'de' ? 'Ihr Termin ist gebucht!' : 'Your appointment is booked!' });
    const address = screen.getByTestId('confirmation-address');
    expect(address.textContent).toBe('erika@example.org');
    expect(address.previousElementSibling?.textContent).toBe(sentTo);
    expect(screen.getByTestId('reminder').textContent).toBe(reminder);
    const advice = screen.getByText((_, el) => el?.tagName === 'P' && el.textContent!.includes(wrong));
    expect(advice.querySelector('a')!.getAttribute('href')).toBe('tel:+492111234560');
  });

  it.each([
    ['asked for, but the appointment is within 24 hours', true, 'keine – Ihr Termin ist in weniger als 24 Stunden'],
    ['not asked for', false, 'nicht gewünscht'],
  ] as const)('a reminder %s: the success screen says none comes', async (_label, remind, text) => {
    // Today late in the evening: its reminder time (yesterday) has passed, whenever the test runs.
    stubApi({ availability: availableOn(berlinToday(), '23:50'), bookings: () => booked({ success: true }) });
    await reachDetails('de', { remind, time: '23:50' });
    await screen.findByRole('heading', { name: 'Ihr Termin ist gebucht!' });
    expect(screen.getByTestId('reminder').textContent).toBe(text);
  });

  it.each([
    ['de', 'Bestätigung nicht gesendet an', 'wir konnten Ihnen keine Bestätigung senden'],
    ['en', 'Confirmation not sent to', 'we could not send you a confirmation'],
  ] as const)('%s: a confirmation that could not be sent says so, with the address and the phone', async (lang, label, text) => {
    stubApi({ bookings: () => booked({ success: false, patientEmailError: 'x' }) });
    await reachDetails(lang);
    await screen.findByRole('heading', { name: lang === 'de' ? 'Ihr Termin ist gebucht!' : 'Your appointment is booked!' });
    expect(screen.getByTestId('confirmation-address').previousElementSibling?.textContent).toBe(label);
    const alert = screen.getAllByRole('alert').find((a) => a.textContent!.includes(text))!;
    expect(alert.querySelector('a[href^="tel:"]')).toBeTruthy();
  });

  it('English cards are sorted by their English names', async () => {
    const b = { ...TYPE, id: '33333333-3333-4333-8333-333333333333', name: 'Akutsprechstunde', name_en: 'Urgent consultation' };
    const c = { ...TYPE, id: '44444444-4444-4444-8444-444444444444', name: 'Zweitmeinung', name_en: 'Blood test' };
    stubApi({ types: () => json([b, TYPE, c]) });
    render(<BookingWizard lang="en" />);
    await screen.findByRole('button', { name: 'Select: Health check' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Blood test', 'Health check', 'Urgent consultation']);
  });
});

describe('a type saved without an English name (docs/decisions/030)', () => {
  const GERMAN_ONLY = { ...TYPE, name_en: null };
  /** The texts marked German. */
  const markedGerman = () => [...document.body.querySelectorAll('[lang="de"]')].map((el) => el.textContent);
  /** Elements with a language of their own around the type's name (the calendar has one: the German day names). */
  const markedAroundName = (name: string) => [...document.body.querySelectorAll('[lang]')].filter((el) => el.textContent!.includes(name));

  it('en: the German name in step 2’s line is marked lang="de"', async () => {
    stubApi({ types: () => json([GERMAN_ONLY]) });
    render(<BookingWizard lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Select: Check-up' }));
    await screen.findByRole('heading', { name: 'Choose date and time' });
    expect(markedGerman()).toEqual(['Check-up']);
    expect(screen.getByText('Check-up').parentElement!.textContent).toBe('Check-up · 20 minutes');
  });

  it('en: the summary on step 3 and the success screen mark it lang="de"', async () => {
    let release!: (r: Response) => void;
    stubApi({ types: () => json([GERMAN_ONLY]), bookings: () => new Promise<Response>((r) => (release = r)) });
    await reachDetails('en', { typeName: 'Check-up' });
    await screen.findByRole('button', { name: 'Booking appointment...' });
    expect(markedGerman()).toEqual(['Check-up']);
    release(booked({ success: true }));
    await screen.findByRole('heading', { name: 'Your appointment is booked!' });
    expect(markedGerman()).toEqual(['Check-up']);
    expect(screen.getByText('Check-up').previousElementSibling?.textContent).toBe('Type');
  });

  it.each([
    ['en with an English name', 'en', TYPE],
    ['de', 'de', GERMAN_ONLY],
  ] as const)('%s: the name is not marked on steps 2, 3 and the success screen', async (_label, lang, type) => {
    const name = lang === 'de' ? 'Check-up' : 'Health check';
    let release!: (r: Response) => void;
    stubApi({ types: () => json([type]), bookings: () => new Promise<Response>((r) => (release = r)) });
    render(<BookingWizard lang={lang} />);
    fireEvent.click(await screen.findByRole('button', { name: `${lang === 'de' ? 'Auswählen' : 'Select'}: ${name}` }));
    await screen.findByRole('heading', { name: lang === 'de' ? 'Datum und Uhrzeit wählen' : 'Choose date and time' });
    expect(markedAroundName(name)).toEqual([]);
    cleanup();
    window.history.replaceState(null, '', '/termin');
    await reachDetails(lang);
    await screen.findByRole('button', { name: lang === 'de' ? 'Termin wird gebucht...' : 'Booking appointment...' });
    expect(markedAroundName(name)).toEqual([]);
    release(booked({ success: true }));
    await screen.findByRole('heading', { name: lang === 'de' ? 'Ihr Termin ist gebucht!' : 'Your appointment is booked!' });
    expect(markedAroundName(name)).toEqual([]);
  });
});
