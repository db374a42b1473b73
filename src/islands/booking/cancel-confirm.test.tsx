/**
 * The link page's "Termin absagen" asks once, naming type, date and time;
 * Escape and "Behalten" keep the appointment (nothing is posted). A link
 * whose appointment the patient cancelled says so (410 cancelled-by-patient)
 * instead of "invalid or already used". Both languages
 * (docs/decisions/029; end to end in tests/e2e/patient-wizard-place.spec.ts).
 */
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { formatLongDate } from '../../lib/dates';
import CancelAppointment from './cancel-appointment';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const TOKEN = 'b'.repeat(43);
const PHONE = { display: '0211 123 456 0', href: 'tel:+492111234560' };
const DAY = addDaysToDate(berlinToday(), 3);
const APPOINTMENT = {
  appointment_type_id: '11111111-1111-4111-8111-111111111111',
  type_name: 'Check-up',
  type_name_en: 'Health check',
  appointment_date: DAY,
  appointment_time: '09:20',
  reference: 'K7M2QX',
  price_cents: null,
};
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const text = {
  de: {
    cancel: 'Termin absagen',
    title: `Termin am ${formatLongDate(DAY, 'de')} um 09:20 Uhr wirklich absagen?`,
    type: 'Check-up',
    keep: 'Behalten',
    really: 'Ja, Termin absagen',
    cancelled: 'Termin abgesagt',
    byPatientTitle: 'Termin bereits abgesagt',
    byPatient: `Sie haben diesen Termin am ${formatLongDate(DAY, 'de')} um 09:20 Uhr abgesagt.`,
    invalid: 'ungültig oder wurde bereits verwendet',
  },
  en: {
    cancel: 'Cancel appointment',
    title: `Really cancel your appointment on ${formatLongDate(DAY, 'en')} at 09:20?`,
    type: 'Health check',
    keep: 'Keep it',
    really: 'Yes, cancel it',
    cancelled: 'Appointment cancelled',
    byPatientTitle: 'Appointment already cancelled',
    byPatient: `You cancelled this appointment on ${formatLongDate(DAY, 'en')} at 09:20.`,
    invalid: 'invalid or has already been used',
  },
} as const;

beforeEach(() => {
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => true);
  window.history.replaceState(null, '', `/termin/absagen?token=${TOKEN}`);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stub(get: () => Response = () => json(APPOINTMENT)) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => (init?.method === 'POST' ? json({ cancelled: true }) : get()));
  vi.stubGlobal('fetch', fetchMock);
  return { posts: () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').length };
}

describe.each(['de', 'en'] as const)('"Termin absagen" asks once (%s)', (lang) => {
  const x = text[lang];

  async function openDialog() {
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    await screen.findByText('K7M2QX');
    fireEvent.click(screen.getByRole('button', { name: x.cancel }));
    return screen.findByRole('alertdialog', { name: x.title });
  }

  it('names type, date and time; confirming cancels with one request', async () => {
    const api = stub();
    const dialog = await openDialog();
    expect(dialog.textContent).toContain(x.type);
    expect(api.posts()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: x.really }));
    expect(await screen.findByRole('heading', { level: 1, name: x.cancelled })).toBeTruthy();
    expect(api.posts()).toBe(1);
  });

  it('"Behalten" keeps the appointment', async () => {
    const api = stub();
    await openDialog();
    fireEvent.click(screen.getByRole('button', { name: x.keep }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('K7M2QX')).toBeTruthy();
    expect(api.posts()).toBe(0);
  });

  it('Escape keeps the appointment', async () => {
    const api = stub();
    const dialog = await openDialog();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: x.cancel })).toBeTruthy();
    expect(api.posts()).toBe(0);
  });

  it('a link whose appointment the patient cancelled says so, not "invalid"', async () => {
    stub(() =>
      json(
        {
          type: 'cancelled-by-patient',
          status: 410,
          appointment_date: DAY,
          appointment_time: '09:20',
          type_name: 'Check-up',
          type_name_en: 'Health check',
          reference: 'K7M2QX',
        },
        410,
      ),
    );
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    expect(await screen.findByRole('heading', { level: 1, name: x.byPatientTitle })).toBeTruthy();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(x.byPatient);
    expect(alert.textContent).toContain('K7M2QX');
    expect(alert.textContent).toContain(x.type);
    expect(alert.textContent).not.toContain(x.invalid);
  });
});

describe('a type saved without an English name (docs/decisions/030)', () => {
  const cancelledBy = (who: 'patient' | 'practice', typeNameEn: string | null) => () =>
    json(
      { type: `cancelled-by-${who}`, status: 410, appointment_date: DAY, appointment_time: '09:20', type_name: 'Check-up', type_name_en: typeNameEn, reference: 'K7M2QX' },
      410,
    );

  it.each(['patient', 'practice'] as const)('en, cancelled by the %s: the German name is marked lang="de"', async (who) => {
    stub(cancelledBy(who, null));
    render(<CancelAppointment lang="en" phone={PHONE} />);
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toContain('K7M2QX'));
    expect([...alert.querySelectorAll('[lang="de"]')].map((el) => el.textContent)).toEqual(['Check-up']);
  });

  it.each([
    ['en with an English name', 'en', 'Health check'],
    ['de', 'de', null],
  ] as const)('%s: the name is not marked', async (_label, lang, typeNameEn) => {
    stub(cancelledBy('practice', typeNameEn));
    render(<CancelAppointment lang={lang} phone={PHONE} />);
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toContain('K7M2QX'));
    expect(alert.textContent).toContain(lang === 'de' ? 'Check-up' : 'Health check');
    expect(alert.querySelectorAll('[lang]')).toHaveLength(0);
  });
});
