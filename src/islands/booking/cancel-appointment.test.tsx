/**
 * The cancellation link's page with a stubbed API: "Termin verschieben" /
 * "Reschedule" shows the wizard's calendar for the same type, moves the
 * appointment and confirms the new time with its .ics; a time taken
 * meanwhile reloads the calendar with the time cleared; offline says so with
 * a retry; an appointment that has begun cannot be moved. Both languages.
 * The real thing runs end to end in tests/e2e/reschedule.spec.ts.
 */
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { formatLongDate } from '../../lib/dates';
import CancelAppointment from './cancel-appointment';

// The calendar renders slowly when the two shared cores are busy: wait longer than the defaults.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const TOKEN = 'a'.repeat(43);
const PHONE = { display: '0211 123 456 0', href: 'tel:+492111234560' };
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
const DAY = addDaysToDate(berlinToday(), 2);
const APPOINTMENT = {
  appointment_type_id: TYPE.id,
  type_name: 'Check-up',
  type_name_en: 'Health check',
  appointment_date: DAY,
  appointment_time: '09:00',
  reference: 'K7M2QX',
  price_cents: null,
};

type Route = (url: string, init?: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const problem = (type: string, status: number) =>
  new Response(JSON.stringify({ type: `https://praxis.example/problems/${type}`, title: type, status, detail: type }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

function stubApi(routes: { reschedule: Route; types?: Route; availability?: Route; appointment?: Omit<typeof APPOINTMENT, 'price_cents' | 'type_name_en'> & { price_cents: number | null; type_name_en: string | null } }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/bookings/cancel')) return json(routes.appointment ?? APPOINTMENT);
    if (url.startsWith('/api/appointment-types')) return (routes.types ?? (() => json([TYPE])))(url, init);
    if (url.startsWith('/api/availability')) {
      return (routes.availability ?? (() => json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date: DAY, times: ['09:20', '09:40'] }] })))(
        url,
        init,
      );
    }
    if (url.startsWith('/api/bookings/reschedule')) return routes.reschedule(url, init);
    throw new Error(`unexpected ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof stubApi>, prefix: string) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith(prefix));

const text = {
  de: {
    reschedule: 'Termin verschieben',
    confirm: 'Auf diese Zeit verschieben',
    time: (t: string) => `${t} Uhr`,
    done: 'Termin verschoben',
    calendar: 'Zum Kalender hinzufügen (.ics)',
    taken: 'Diese Uhrzeit wurde gerade eben von jemand anderem gebucht. Bitte wählen Sie eine andere freie Zeit – Ihr bisheriger Termin bleibt bestehen.',
    offline: 'Keine Internetverbindung',
    retry: 'Erneut versuchen',
    tooLate: 'kann online nicht mehr verschoben werden',
    tooOften: 'Dieser Termin wurde zu oft verschoben.',
    typeUnavailable: 'Diese Terminart kann nicht mehr online verschoben werden. Ihr Termin bleibt bestehen',
    cancel: 'Termin absagen',
    reallyCancel: 'Ja, Termin absagen',
    cancelled: 'Termin abgesagt',
    file: 'termin.ics',
  },
  en: {
    reschedule: 'Reschedule',
    confirm: 'Move to this time',
    time: (t: string) => t,
    done: 'Appointment rescheduled',
    calendar: 'Add to calendar (.ics)',
    taken: 'Someone else has just booked this time. Please choose another free time – your current appointment stays as it is.',
    offline: 'No internet connection',
    retry: 'Try again',
    tooLate: 'can no longer be moved online',
    tooOften: 'This appointment has been moved too often.',
    typeUnavailable: 'This type of appointment can no longer be moved online. Your appointment stands',
    cancel: 'Cancel appointment',
    reallyCancel: 'Yes, cancel it',
    cancelled: 'Appointment cancelled',
    file: 'appointment.ics',
  },
} as const;

async function openReschedule(lang: 'de' | 'en') {
  render(<CancelAppointment lang={lang} phone={PHONE} />);
  // The appointment as it is, with its reference.
  expect(await screen.findByText('K7M2QX')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: text[lang].reschedule }));
  // The wizard's calendar for the same type, opened on the appointment's day.
  return screen.findByRole('button', { name: text[lang].time('09:40') });
}

const moved = (time: string) =>
  json({ booking: { id: 'booking-1', appointment_type_id: TYPE.id, appointment_date: DAY, appointment_time: time, reference: 'K7M2QX' }, email: { success: true } });

let online = true;

beforeAll(async () => {
  // Loaded on demand by the page; transformed once here so findBy* does not wait for vitest.
  await Promise.all([import('./cancel-reschedule'), import('./step-date-time')]);
}, 60_000);

beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  window.history.replaceState(null, '', `/termin/absagen?token=${TOKEN}`);
});

afterEach(async () => {
  toast.dismiss();
  cleanup();
  await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0));
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe.each(['de', 'en'] as const)('reschedule by link (%s)', (lang) => {
  const x = text[lang];

  it('moves the appointment and confirms the new time with reference and .ics (same UID as the email)', async () => {
    const fetchMock = stubApi({ reschedule: () => moved('09:40') });
    fireEvent.click(await openReschedule(lang));
    // The current time is not offered (it is taken by the appointment itself).
    expect(screen.queryByRole('button', { name: x.time('09:00') })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));

    expect(await screen.findByRole('heading', { name: x.done })).toBeTruthy();
    const [, init] = calls(fetchMock, '/api/bookings/reschedule')[0]!;
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ token: TOKEN, appointment_date: DAY, appointment_time: '09:40', language: lang });
    expect(screen.getByTestId('booking-reference').textContent).toBe('K7M2QX');
    expect(screen.getByText(formatLongDate(DAY, lang))).toBeTruthy();
    expect(screen.getByText(x.time('09:40'))).toBeTruthy();
    expect(screen.getByText(lang === 'de' ? 'Check-up' : 'Health check')).toBeTruthy();
    const ics = screen.getByRole('link', { name: x.calendar }) as HTMLAnchorElement;
    expect(ics.getAttribute('download')).toBe(x.file);
    const file = decodeURIComponent(ics.href.replace(/^data:text\/calendar;charset=utf-8,/, ''));
    expect(file).toContain(`UID:booking-1@${window.location.hostname}`);
    expect(file).toContain(`DTSTART;TZID=Europe/Berlin:${DAY.replaceAll('-', '')}T094000`);
  });

  it('a time taken meanwhile: says so, reloads the calendar, clears the time; another free time then moves', async () => {
    let taken = false;
    const fetchMock = stubApi({
      availability: () =>
        json({ timezone: 'Europe/Berlin', type: TYPE.id, days: [{ date: DAY, times: taken ? ['09:20'] : ['09:20', '09:40'] }] }),
      reschedule: (_url, init) => {
        if (JSON.parse(String(init?.body)).appointment_time === '09:40') {
          taken = true;
          return problem('slot-unavailable', 409);
        }
        return moved('09:20');
      },
    });
    fireEvent.click(await openReschedule(lang));
    const before = calls(fetchMock, '/api/availability').length;
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));

    expect((await screen.findByRole('alert')).textContent).toContain(x.taken);
    await waitFor(() => expect(calls(fetchMock, '/api/availability').length).toBeGreaterThan(before));
    const free = await screen.findByRole('button', { name: x.time('09:20') });
    expect(screen.queryByRole('button', { name: x.time('09:40') })).toBeNull();
    // No time chosen: nothing to submit until a free one is picked.
    expect((screen.getByRole('button', { name: x.confirm }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(free);
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));
    expect(await screen.findByRole('heading', { name: x.done })).toBeTruthy();
    expect(screen.getByText(x.time('09:20'))).toBeTruthy();
  });

  it('moved too often (429): says so and the appointment stays; nothing else is sent', async () => {
    const fetchMock = stubApi({ reschedule: () => problem('rate-limited', 429) });
    fireEvent.click(await openReschedule(lang));
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));
    expect((await screen.findByRole('alert')).textContent).toContain(x.tooOften);
    expect(screen.queryByRole('heading', { name: x.done })).toBeNull();
    expect(calls(fetchMock, '/api/bookings/reschedule')).toHaveLength(1);
  });

  it('offline: says there is no connection, keeps the time, and the retry moves it', async () => {
    let fail = true;
    const fetchMock = stubApi({
      reschedule: () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : moved('09:40')),
    });
    fireEvent.click(await openReschedule(lang));
    online = false;
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(x.offline);
    expect(screen.getByRole('button', { name: x.time('09:40') }).getAttribute('aria-pressed')).toBe('true');
    online = true;
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: x.retry }));
    expect(await screen.findByRole('heading', { name: x.done })).toBeTruthy();
    expect(calls(fetchMock, '/api/bookings/reschedule')).toHaveLength(2);
  });

  it('offline before the calendar loads: the page says so and the retry opens the calendar', async () => {
    let down = true;
    stubApi({
      types: () => (down ? Promise.reject(new TypeError('Failed to fetch')) : json([TYPE])),
      reschedule: () => moved('09:40'),
    });
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByText('K7M2QX');
    online = false;
    fireEvent.click(screen.getByRole('button', { name: x.reschedule }));
    // The page's heading says it, and the alert what cannot be done.
    expect(await screen.findByRole('heading', { level: 1, name: x.offline })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/internet/i);
    online = true;
    down = false;
    fireEvent.click(screen.getByRole('button', { name: x.retry }));
    expect(await screen.findByRole('button', { name: x.time('09:40') })).toBeTruthy();
  });

  it('shows a self-pay appointment with its price, like the success screen and the emails', async () => {
    stubApi({ reschedule: () => moved('09:40'), appointment: { ...APPOINTMENT, price_cents: 3500 } });
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    expect(await screen.findByText(lang === 'de' ? '35,00 €' : '€35.00')).toBeTruthy();
    expect(screen.getByText(lang === 'de' ? /^Preis/ : /^Price/)).toBeTruthy();
    expect(screen.getByTestId('booking-reference').textContent).toBe('K7M2QX');
  });

  it('shows no price for an appointment covered by health insurance', async () => {
    stubApi({ reschedule: () => moved('09:40') });
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByText('K7M2QX');
    expect(screen.queryByText(lang === 'de' ? /^Preis/ : /^Price/)).toBeNull();
  });

  it('a type no longer offered online: says the appointment stands and can still be cancelled here', async () => {
    const fetchMock = stubApi({ types: () => json([]), reschedule: () => moved('09:40') });
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByText('K7M2QX');
    fireEvent.click(screen.getByRole('button', { name: x.reschedule }));
    expect((await screen.findByRole('alert')).textContent).toContain(x.typeUnavailable);
    // Still the appointment, not "link invalid": its reference and the cancel button stay.
    expect(screen.getByText('K7M2QX')).toBeTruthy();
    expect(calls(fetchMock, '/api/bookings/reschedule')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: x.cancel }));
    fireEvent.click(await screen.findByRole('button', { name: x.reallyCancel }));
    expect(await screen.findByRole('heading', { name: x.cancelled })).toBeTruthy();
  });

  it('an appointment that has begun meanwhile cannot be moved online: says so', async () => {
    stubApi({ reschedule: () => problem('too-late', 409) });
    fireEvent.click(await openReschedule(lang));
    fireEvent.click(screen.getByRole('button', { name: x.confirm }));
    expect((await screen.findByRole('alert')).textContent).toContain(x.tooLate);
  });
});

describe.each(['de', 'en'] as const)('the page heading follows what the patient does (%s)', (lang) => {
  const h = {
    de: { ready: 'Termin absagen oder verschieben', move: 'Termin verschieben', moved: 'Termin verschoben', cancelled: 'Termin abgesagt', incomplete: 'Link unvollständig' },
    en: { ready: 'Cancel or reschedule your appointment', move: 'Reschedule your appointment', moved: 'Appointment rescheduled', cancelled: 'Appointment cancelled', incomplete: 'Incomplete link' },
  }[lang];
  const h1 = () => screen.getByRole('heading', { level: 1 });

  it('cancel or move, then moving, then moved; the title follows and focus goes to the heading', async () => {
    stubApi({ reschedule: () => moved('09:40') });
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    expect(await screen.findByRole('heading', { level: 1, name: h.ready })).toBeTruthy();
    expect(document.title).toContain(h.ready);
    // Showing the appointment on arrival does not move focus.
    expect(document.activeElement).not.toBe(h1());
    fireEvent.click(screen.getByRole('button', { name: text[lang].reschedule }));
    fireEvent.click(await screen.findByRole('button', { name: text[lang].time('09:40') }));
    expect(h1().textContent).toBe(h.move);
    expect(document.activeElement).toBe(h1());
    fireEvent.click(screen.getByRole('button', { name: text[lang].confirm }));
    expect(await screen.findByRole('heading', { level: 1, name: h.moved })).toBeTruthy();
    expect(document.title).toContain(h.moved);
    expect(document.activeElement).toBe(h1());
    // Exactly one heading of the page: the old "cancel" one is gone.
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('cancelled', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => (init?.method === 'POST' ? json({ cancelled: true }) : json(APPOINTMENT))),
    );
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByRole('heading', { level: 1, name: h.ready });
    fireEvent.click(screen.getByRole('button', { name: text[lang].cancel }));
    fireEvent.click(await screen.findByRole('button', { name: text[lang].reallyCancel }));
    expect(await screen.findByRole('heading', { level: 1, name: h.cancelled })).toBeTruthy();
    expect(document.activeElement).toBe(h1());
  });

  it.each([
    ['no token', '/termin/absagen'],
    ['a token cut short by a mail program', `/termin/absagen?token=${TOKEN.slice(0, 30)}`],
  ])('%s: "link incomplete" with the practice phone, and nothing asked of the server', async (_label, url) => {
    const fetchMock = stubApi({ reschedule: () => moved('09:40') });
    window.history.replaceState(null, '', url);
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    expect(await screen.findByRole('heading', { level: 1, name: h.incomplete })).toBeTruthy();
    const call = screen.getByRole('link', { name: PHONE.display });
    expect(call.getAttribute('href')).toBe(PHONE.href);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('a type saved without an English name (docs/decisions/030)', () => {
  const GERMAN_ONLY = { appointment: { ...APPOINTMENT, type_name_en: null }, types: () => json([{ ...TYPE, name_en: null }]) };
  /** The texts marked German. */
  const markedGerman = () => [...document.body.querySelectorAll('[lang="de"]')].map((el) => el.textContent);
  /** Elements with a language of their own around the type's name (the calendar has one: the German day names). */
  const markedAroundName = (name: string) => [...document.body.querySelectorAll('[lang]')].filter((el) => el.textContent!.includes(name));

  async function walk(lang: 'de' | 'en', check: (step: 'details' | 'dialog' | 'calendar' | 'moved', dialog?: HTMLElement) => void) {
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByText('K7M2QX');
    check('details');
    fireEvent.click(screen.getByRole('button', { name: text[lang].cancel }));
    check('dialog', await screen.findByRole('alertdialog'));
    fireEvent.click(screen.getByRole('button', { name: lang === 'de' ? 'Behalten' : 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: text[lang].reschedule }));
    fireEvent.click(await screen.findByRole('button', { name: text[lang].time('09:40') }));
    check('calendar');
    fireEvent.click(screen.getByRole('button', { name: text[lang].confirm }));
    await screen.findByRole('heading', { name: text[lang].done });
    check('moved');
  }

  it('en: the German name is marked lang="de" in the details, the cancel dialog, the calendar’s line and after moving', async () => {
    stubApi({ ...GERMAN_ONLY, reschedule: () => moved('09:40') });
    const seen: string[] = [];
    await walk('en', (step, dialog) => {
      seen.push(step);
      if (step === 'dialog') {
        expect([...dialog!.querySelectorAll('[lang="de"]')].map((el) => el.textContent)).toEqual(['Check-up']);
        expect(dialog!.querySelector('[lang="de"]')!.parentElement!.textContent).toMatch(/^Check-up\. The time becomes free/);
        return;
      }
      expect(markedGerman()).toEqual(['Check-up']);
      if (step === 'calendar') expect(screen.getByText('Check-up').parentElement!.textContent).toBe('Check-up · 20 minutes');
      else expect(screen.getByText('Check-up').tagName).toBe('DD');
    });
    expect(seen).toEqual(['details', 'dialog', 'calendar', 'moved']);
  });

  it.each([
    ['en with an English name', 'en', {}],
    ['de', 'de', GERMAN_ONLY],
  ] as const)('%s: the name is not marked', async (_label, lang, routes) => {
    stubApi({ ...routes, reschedule: () => moved('09:40') });
    const name = lang === 'de' ? 'Check-up' : 'Health check';
    await walk(lang, () => expect(markedAroundName(name)).toEqual([]));
  });
});
