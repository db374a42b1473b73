/**
 * The waitlist page with a stubbed API (docs/decisions/032-waitlist.md): an
 * offer shown and taken; "schon vergeben" with the next free time, taken
 * instead; leaving; a lapsed offer; asking, with a refusal shown at its
 * field. Both languages. The real thing runs end to end in
 * tests/e2e/waitlist.spec.ts.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLongDate } from '../../lib/dates';
import WaitlistPage from './waitlist-page';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const TOKEN = 'o'.repeat(43);
const NEXT = 'n'.repeat(43);
const PHONE = { display: '0211 123 456 0', href: 'tel:+492111234560' };
const TEXTS = { 'summary.type': 'Terminart', 'summary.date': 'Datum', 'summary.time': 'Uhrzeit', 'cancel.bookNew': 'Neuen Termin buchen' };
const OFFER = {
  appointment_type_id: '11111111-1111-4111-8111-111111111111',
  type_name: 'Check-up',
  type_name_en: 'Health check',
  appointment_date: '2030-01-08',
  appointment_time: '09:00',
  current: { date: '2030-01-10', time: '11:20' },
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function open(query: string, routes: Record<string, (init?: RequestInit) => Response>) {
  window.history.replaceState(null, '', `/termin/warteliste?${query}`);
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url: `${init?.method ?? 'GET'} ${url}`, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const key = Object.keys(routes).find((k) => `${init?.method ?? 'GET'} ${url}`.startsWith(k));
      if (!key) throw new Error(`unexpected ${url}`);
      return routes[key]!(init);
    }),
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the offer page', () => {
  it('de: shows the offered time and the current one; "Übernehmen" takes it', async () => {
    const calls = open(`offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json(OFFER),
      'POST /api/waitlist/offer': () => json({ booking: { id: 'b', appointment_date: '2030-01-08', appointment_time: '09:00' } }),
    });
    render(<WaitlistPage lang="de" texts={TEXTS} phone={PHONE} />);
    expect(await screen.findByRole('heading', { name: 'Früherer Termin frei' })).toBeInTheDocument();
    expect(screen.getByText(formatLongDate('2030-01-08', 'de'))).toBeInTheDocument();
    expect(screen.getByText('09:00 Uhr')).toBeInTheDocument();
    expect(screen.getByText('Ihr bisheriger Termin')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText(/Der Termin gehört Ihnen/)).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({ url: 'POST /api/waitlist/offer', body: { token: TOKEN } });
  });

  it('en: someone was first: "already taken", the next free time offered and taken with its own link', async () => {
    const calls = open(`offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json({ ...OFFER, current: null }),
      'POST /api/waitlist/offer': (init) =>
        JSON.parse(String(init!.body)).token === TOKEN
          ? json({ type: 'taken', status: 409, next: { token: NEXT, appointment_date: '2030-01-09', appointment_time: '10:00' } }, 409)
          : json({ booking: { id: 'b' } }),
    });
    render(<WaitlistPage lang="en" texts={TEXTS} phone={PHONE} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Take it' }));
    expect(await screen.findByText('This time has already been taken. You stay on the waiting list.')).toBeInTheDocument();
    expect(screen.getByText(formatLongDate('2030-01-09', 'en'))).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Take it' }));
    expect(await screen.findByText(/the appointment is yours/)).toBeInTheDocument();
    expect(calls.at(-1)!.body).toEqual({ token: NEXT });
  });

  it('"Von der Liste nehmen" leaves the list with the offer\'s token', async () => {
    const calls = open(`offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json(OFFER), 'POST /api/waitlist/leave': () => new Response(null, { status: 204 }) });
    render(<WaitlistPage lang="de" texts={TEXTS} phone={PHONE} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Von der Liste nehmen' }));
    expect(await screen.findByText('Sie stehen nicht mehr auf der Warteliste.')).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({ url: 'POST /api/waitlist/leave', body: { token: TOKEN } });
  });

  it('a lapsed or withdrawn offer (410) says so; a cut-short link asks nothing of the API', async () => {
    open(`offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json({ type: 'expired', status: 410 }, 410) });
    render(<WaitlistPage lang="en" texts={TEXTS} phone={PHONE} />);
    expect(await screen.findByText('This offer is no longer valid.')).toBeInTheDocument();
    cleanup();
    const calls = open('offer=abc', {});
    render(<WaitlistPage lang="de" texts={TEXTS} phone={PHONE} />);
    expect(await screen.findByText('Dieser Link ist ungültig.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('asking for an earlier time', () => {
  it('with a booking\'s link: a refusal shows at its field, then the entry is made with weekdays and part of day', async () => {
    let attempt = 0;
    const calls = open(`token=${TOKEN}&until=2030-01-20`, {
      'POST /api/waitlist': () =>
        ++attempt === 1 ? json({ type: 'invalid-input', status: 400, errors: { from: ['waitlist.errors.fromPast'] } }, 400) : json({ id: 'e' }, 201),
    });
    render(<WaitlistPage lang="de" texts={TEXTS} phone={PHONE} />);
    expect(await screen.findByRole('heading', { name: 'Früheren Termin gewünscht' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Di' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Vormittags' }));
    fireEvent.click(screen.getByRole('button', { name: 'Eintragen' }));
    expect(await screen.findByText('Dieser Tag ist schon vorbei.')).toBeInTheDocument();
    expect(screen.getByLabelText('Ab wann')).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Eintragen' }));
    expect(await screen.findByText(/Sie stehen auf der Warteliste/)).toBeInTheDocument();
    expect(calls.at(-1)!.body).toMatchObject({ token: TOKEN, to: '2030-01-20', weekdays: [2], dayparts: ['morning'] });
  });
});

describe('a type saved without an English name (docs/decisions/030)', () => {
  const GERMAN_ONLY = { ...OFFER, type_name_en: null };
  const marked = () => [...document.body.querySelectorAll('[lang]')].map((el) => [el.getAttribute('lang'), el.textContent]);

  it('en: the German name is marked lang="de" in the offer, the next free time and once taken', async () => {
    open(`offer=${TOKEN}`, {
      'GET /api/waitlist/offer': () => json(GERMAN_ONLY),
      'POST /api/waitlist/offer': (init) =>
        JSON.parse(String(init!.body)).token === TOKEN
          ? json({ type: 'taken', status: 409, next: { token: NEXT, appointment_date: '2030-01-09', appointment_time: '10:00' } }, 409)
          : json({ booking: { id: 'b' } }),
    });
    render(<WaitlistPage lang="en" texts={TEXTS} phone={PHONE} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Take it' }));
    expect(marked()).toEqual([['de', 'Check-up']]);
    await screen.findByText('This time has already been taken. You stay on the waiting list.');
    expect(marked()).toEqual([['de', 'Check-up']]);
    fireEvent.click(screen.getByRole('button', { name: 'Take it' }));
    await screen.findByText(/the appointment is yours/);
    expect(marked()).toEqual([['de', 'Check-up']]);
    expect(screen.getByText('Check-up').tagName).toBe('DD');
  });

  it.each([
    ['en with an English name', 'en', OFFER, 'Health check'],
    ['de', 'de', GERMAN_ONLY, 'Check-up'],
  ] as const)('%s: nothing is marked', async (_label, lang, offer, name) => {
    open(`offer=${TOKEN}`, { 'GET /api/waitlist/offer': () => json(offer) });
    render(<WaitlistPage lang={lang} texts={TEXTS} phone={PHONE} />);
    expect(await screen.findByText(name)).toBeInTheDocument();
    expect(marked()).toEqual([]);
  });
});
