// @vitest-environment jsdom
/**
 * The waitlist page's script (waitlist-boot.ts) with a stubbed API, in both
 * languages: an offer shown and taken ("Dieser Termin gehört Ihnen: …");
 * "Schon vergeben" with the next free time, taken with the same link; a
 * taken link showing its booking; leaving; the form naming the type and the
 * current booking, offering only weekdays and parts of the day with
 * windows (narrowed to the weekdays ticked), asking for a phone
 * without a booking, reading DD/MM/YYYY in English; after joining, the times
 * free now taken at once; refusals at their fields. The real thing runs end
 * to end in tests/e2e/waitlist.spec.ts.
 */
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dictionaries, type Lang } from '../../i18n/i18n';
import { waitlistTextsOf } from '../../lib/waitlist-texts';
import { bootWaitlist } from './waitlist-boot';

const TOKEN = 'o'.repeat(43);
const ENTRY = 'e'.repeat(43);
const LINK = 'l'.repeat(43);
const TYPE = '11111111-1111-4111-8111-111111111111';
const OFFER = {
  appointment_type_id: TYPE,
  type_name: 'Check-up',
  type_name_en: 'Health check',
  appointment_date: '2030-01-08',
  appointment_time: '09:00',
  current: { date: '2030-01-10', time: '11:20' },
};
const CONTEXT = { appointment_type_id: TYPE, type_name: 'Check-up', type_name_en: 'Health check', weekdays: [1, 3, 5], last_date: '2030-01-21', current: null };

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The page as waitlist-page.astro renders it, at `?query`, with the API answering by `routes` ("METHOD path", query aside). */
function open(lang: Lang, query: string, routes: Record<string, (body: Record<string, unknown> | undefined) => Response>) {
  window.history.replaceState(null, '', `${lang === 'en' ? '/en' : ''}/termin/warteliste?${query}`);
  const calls: Array<{ url: string; body: Record<string, unknown> | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = `${init?.method ?? 'GET'} ${String(input)}`;
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
      calls.push({ url, body });
      const key = Object.keys(routes).find((k) => url.split('?')[0] === k);
      if (!key) throw new Error(`unexpected ${url}`);
      return routes[key]!(body);
    }),
  );
  const d = dictionaries[lang] as Record<string, string>;
  const texts = { ...d, ...waitlistTextsOf(lang) };
  document.body.innerHTML = `<section data-waitlist data-lang="${lang}" data-phone-display="0211 123" data-phone-href="tel:+49211123"><h1 tabindex="-1">x</h1><div data-waitlist-body></div></section>`;
  const root = document.querySelector<HTMLElement>('[data-waitlist]')!;
  root.dataset.texts = JSON.stringify(texts);
  bootWaitlist(root);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('an offer link', () => {
  it('de: the freed time and the current one; "Übernehmen" makes it "Dieser Termin gehört Ihnen: Di 8.1., 09:00"', async () => {
    const calls = open('de', `offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json(OFFER),
      'POST /api/waitlist/offer': () => json({ booking: { id: 'b', reference: 'K7M2Q9', appointment_date: '2030-01-08', appointment_time: '09:00' } }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Früherer Termin frei' })).toBeInTheDocument();
    expect(await screen.findByText('Dieser Termin ist frei geworden. Wer zuerst übernimmt, bekommt ihn.')).toBeInTheDocument();
    expect(screen.getByText('Dienstag, 8. Januar 2030')).toBeInTheDocument();
    expect(screen.getByText('09:00 Uhr')).toBeInTheDocument();
    expect(screen.getByText('Donnerstag, 10. Januar 2030, 11:20 Uhr')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dieser Termin gehört Ihnen' })).toHaveFocus();
    expect(screen.getByText('Dieser Termin gehört Ihnen: Di 8.1., 09:00')).toBeInTheDocument();
    expect(screen.getByText('Buchungsnummer: K7M2Q9')).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({ url: 'POST /api/waitlist/offer', body: { token: TOKEN } });
  });

  it('en: someone was first: "Already taken", the next free time taken with the same link', async () => {
    const calls = open('en', `offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json(OFFER),
      'POST /api/waitlist/offer': (body) =>
        body!.appointment_date ? json({ booking: { id: 'b', reference: 'K7M2Q9' } }) : json({ type: 'taken', status: 409, next: { appointment_date: '2030-01-09', appointment_time: '10:00' } }, 409),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Take it' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Already taken' })).toHaveFocus();
    expect(screen.getByText('This time has already been taken. You stay on the waiting list.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Take it: Wed 9 Jan, 10:00' }));
    expect(await screen.findByText('This appointment is yours: Wed 9 Jan, 10:00')).toBeInTheDocument();
    expect(calls.at(-1)!.body).toEqual({ token: TOKEN, appointment_date: '2030-01-09', appointment_time: '10:00' });
  });

  it('de: opened after someone else took it: "Schon vergeben" with the next time (the GET made no offer)', async () => {
    open('de', `offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json({ type: 'taken', status: 409, next: { appointment_date: '2030-01-09', appointment_time: '10:00' } }, 409) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Schon vergeben' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Übernehmen: Mi 9.1., 10:00' })).toBeInTheDocument();
  });

  it('en: a link that became a booking shows it, with the booking\'s own link', async () => {
    open('en', `offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json({ ...OFFER, current: null, appointment_date: '2026-12-03', appointment_time: '09:50', taken_by_you: true, booking: { reference: 'K7M2Q9', token: LINK } }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This appointment is yours' })).toBeInTheDocument();
    expect(screen.getByText('This appointment is yours: Thu 3 Dec, 09:50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View, move or cancel the appointment' })).toHaveAttribute('href', `/en/termin/absagen?token=${LINK}`);
  });

  it.each([
    [410, 'Dieses Angebot gilt nicht mehr.'],
    [404, 'Dieser Link ist ungültig.'],
  ])('de: %i says so, with the ways to book', async (status, text) => {
    open('de', `offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json({ type: 'x', status }, status) });
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Neuen Termin buchen' })).toHaveAttribute('href', '/termin');
  });

  it('en: the German name standing in for a missing English one is marked lang="de"', async () => {
    open('en', `offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json({ ...OFFER, type_name_en: null }) });
    expect(await screen.findByText('Check-up')).toHaveAttribute('lang', 'de');
  });

  it('de: "Von der Liste nehmen"', async () => {
    const calls = open('de', `leave=${TOKEN}`, { 'POST /api/waitlist/leave': () => new Response(null, { status: 204 }) });
    fireEvent.click(screen.getByRole('button', { name: 'Von der Liste nehmen' }));
    expect(await screen.findByText('Sie stehen nicht mehr auf der Warteliste.')).toBeInTheDocument();
    expect(calls).toEqual([{ url: 'POST /api/waitlist/leave', body: { token: TOKEN } }]);
  });
});

describe('the form', () => {
  it('en, without a booking: names the type, offers only its weekdays, asks for a phone, reads DD/MM/YYYY; the times free now are taken at once', async () => {
    const calls = open('en', `type=${TYPE}`, {
      'GET /api/waitlist': () => json(CONTEXT),
      'POST /api/waitlist': () =>
        json({ id: 'x', token: ENTRY, free_times: [{ appointment_date: '2030-01-09', appointment_time: '09:00' }, { appointment_date: '2030-01-11', appointment_time: '09:20' }] }, 201),
      'POST /api/waitlist/offer': (body) =>
        body!.appointment_date === '2030-01-09' ? json({ type: 'taken', status: 409, next: null }, 409) : json({ booking: { id: 'b', reference: 'K7M2Q9' } }),
    });
    const form = await screen.findByRole('form', { name: 'Want an earlier appointment?' });
    expect(calls[0]!.url).toBe(`GET /api/waitlist?type=${TYPE}`);
    expect(within(form).getByText('Health check')).toBeInTheDocument();
    const weekdays = within(screen.getByRole('group', { name: 'Weekdays' })).getAllByRole('checkbox');
    expect(weekdays.map((c) => c.closest('label')!.textContent)).toEqual(['Mon', 'Wed', 'Fri']);
    expect(screen.getByLabelText('Date of birth *')).toHaveAttribute('placeholder', 'DD/MM/YYYY');
    fireEvent.input(screen.getByLabelText('First name *'), { target: { value: 'Wilma' } });
    fireEvent.input(screen.getByLabelText('Last name *'), { target: { value: 'Wartend' } });
    fireEvent.input(screen.getByLabelText('Date of birth *'), { target: { value: '03/02/1970' } });
    fireEvent.input(screen.getByLabelText('Phone *'), { target: { value: '0211 555 01 99' } });
    fireEvent.input(screen.getByLabelText('Email *'), { target: { value: 'wilma@example.org' } });
    fireEvent.click(weekdays[1]!);
    fireEvent.click(screen.getByRole('checkbox', { name: /I have read the/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Join the list' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Free right now' })).toBeInTheDocument();
    expect(calls[1]!.body).toMatchObject({
      appointment_type_id: TYPE,
      first_name: 'Wilma',
      birth_date: '1970-02-03',
      phone: '0211 555 01 99',
      email: 'wilma@example.org',
      weekdays: [3],
      consent: true,
      language: 'en',
    });
    // Taken meanwhile: struck through, the others stay.
    fireEvent.click(screen.getByRole('button', { name: 'Take: Wed 9 Jan, 09:00' }));
    expect(await screen.findByText('This time has been taken meanwhile.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Take: Fri 11 Jan, 09:20' }));
    expect(await screen.findByText('This appointment is yours: Fri 11 Jan, 09:20')).toBeInTheDocument();
    expect(calls.at(-1)!.body).toEqual({ token: ENTRY, appointment_date: '2030-01-11', appointment_time: '09:20' });
  });

  it('de: offers only the parts of the day with start times, narrowed to the weekdays ticked', async () => {
    const calls = open('de', `type=${TYPE}`, {
      'GET /api/waitlist': () =>
        json({ ...CONTEXT, weekdays: [1, 4], dayparts: ['morning', 'afternoon'], dayparts_by_weekday: { 1: ['morning'], 4: ['morning', 'afternoon'] } }),
      'POST /api/waitlist': () => json({ id: 'x', token: ENTRY, free_times: [] }, 201),
    });
    await screen.findByRole('form', { name: 'Früheren Termin gewünscht' });
    const parts = screen.getByRole('group', { name: 'Tageszeit' });
    const visible = () => within(parts).getAllByRole('checkbox').filter((c) => !c.closest('label')!.hidden).map((c) => c.closest('label')!.textContent);
    expect(visible()).toEqual(['Vormittags', 'Nachmittags']);
    const afternoon = within(parts).getByRole('checkbox', { name: 'Nachmittags' });
    fireEvent.click(afternoon);
    // Monday alone has mornings only: the afternoon goes, unticked.
    const weekdays = within(screen.getByRole('group', { name: 'Wochentage' })).getAllByRole('checkbox');
    fireEvent.click(weekdays[0]!);
    expect(visible()).toEqual(['Vormittags']);
    expect(afternoon).not.toBeChecked();
    // With Thursday too, afternoons are back.
    fireEvent.click(weekdays[1]!);
    expect(visible()).toEqual(['Vormittags', 'Nachmittags']);
    expect(calls).toHaveLength(1);
  });

  it('en: a type with mornings only says so instead of asking', async () => {
    open('en', `type=${TYPE}`, { 'GET /api/waitlist': () => json({ ...CONTEXT, dayparts: ['morning'], dayparts_by_weekday: { 1: ['morning'], 3: ['morning'], 5: ['morning'] } }) });
    await screen.findByRole('form', { name: 'Want an earlier appointment?' });
    expect(screen.queryByRole('group', { name: 'Time of day' })).toBeNull();
    expect(screen.getByText('Appointments of this type are in the morning only.')).toBeInTheDocument();
  });

  it('de, from a booking\'s link: names the current appointment, no personal fields; a refusal shows at its field', async () => {
    const calls = open('de', `token=${LINK}&until=2030-01-10`, {
      'GET /api/waitlist': () => json({ ...CONTEXT, current: { date: '2030-01-10', time: '09:00' } }),
      'POST /api/waitlist': () => json({ type: 'invalid-input', status: 400, errors: { from: ['waitlist.errors.notBeforeBooking'] } }, 400),
    });
    const form = await screen.findByRole('form', { name: 'Früheren Termin gewünscht' });
    expect(within(form).getByText('Ihr jetziger Termin')).toBeInTheDocument();
    expect(within(form).getByText('Do 10.1., 09:00')).toBeInTheDocument();
    expect(screen.queryByLabelText('Telefon *')).toBeNull();
    expect(screen.getByLabelText('Bis')).toHaveValue('2030-01-10');
    fireEvent.click(screen.getByRole('button', { name: 'Eintragen' }));
    expect(await screen.findByText('Der Zeitraum muss vor Ihrem jetzigen Termin beginnen.')).toBeInTheDocument();
    expect(screen.getByLabelText('Ab wann')).toHaveAttribute('aria-invalid', 'true');
    expect(calls[1]!.body).toMatchObject({ token: LINK, to: '2030-01-10' });
  });

  it('de: a link the list no longer takes says so', async () => {
    open('de', `token=${LINK}`, { 'GET /api/waitlist': () => json({ type: 'not-found', status: 404 }, 404) });
    expect(await screen.findByText('Über diesen Link ist die Warteliste nicht mehr möglich.')).toBeInTheDocument();
  });
});
