/**
 * The booking page's start-up script (wizard-boot.ts) on the wizard's static
 * HTML: step 1 without React, the wizard mounted only when the visitor turns
 * to it (or the URL carries a step, or the types could not be shown), with
 * the loaded types and a card chosen meanwhile handed over. The wizard module
 * is replaced by a recorder here; the real takeover runs in tests/e2e.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dictionaries } from '../../i18n/i18n';
import type { AppointmentType } from './api';
import BookingWizard from './booking-wizard';
import { TYPE_CARD_TEXT_KEYS } from './type-cards';
import { bootWizard } from './wizard-boot';

const mount = vi.hoisted(() => vi.fn((element: HTMLElement, _handover: unknown) => element.replaceChildren('the wizard')));
vi.mock('./booking-wizard-de', () => ({ mount }));
vi.mock('./booking-wizard-en', () => ({ mount }));

const type = (id: string, name: string, name_en: string | null): AppointmentType => ({
  id,
  name,
  name_en,
  description: 'Beschreibung',
  description_en: 'Description',
  max_advance_days: 14,
  slot_duration_minutes: 20,
  max_slots_per_time: 1,
  price_cents: null,
});
// The API's order (German names); English pages sort by the English name.
const TYPES = [type('a', 'Akutsprechstunde', 'Walk-in'), type('b', 'Impfung', 'Vaccination'), type('c', 'Reiseberatung', 'Travel advice')];

/** The page's container as booking-page.astro renders it: the wizard's static HTML and the card texts. */
function page(lang: 'de' | 'en' = 'de') {
  const root = document.createElement('div');
  root.dataset.lang = lang;
  root.dataset.typeCardTexts = JSON.stringify(Object.fromEntries(TYPE_CARD_TEXT_KEYS.map((k) => [k, dictionaries[lang][k]])));
  root.innerHTML = renderToStaticMarkup(<BookingWizard lang={lang} />);
  document.body.append(root);
  bootWizard(root);
  return root;
}

function stubTypes(answer: () => Promise<Response>) {
  const fetchMock = vi.fn(answer);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const json = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

beforeEach(() => {
  mount.mockClear();
  window.history.replaceState(null, '', '/termin');
});
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the booking page before the wizard', () => {
  it('shows the type cards without the wizard, and mounts it with the types on the first pointer', async () => {
    stubTypes(() => json(TYPES));
    const root = page();
    await screen.findByRole('button', { name: 'Auswählen: Akutsprechstunde' });
    expect(screen.queryByTestId('type-placeholder')).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Auswählen: / })).toHaveLength(3);
    expect(mount).not.toHaveBeenCalled();

    fireEvent.pointerOver(screen.getByRole('button', { name: 'Auswählen: Impfung' }));
    await waitFor(() => expect(mount).toHaveBeenCalledOnce());
    expect(mount).toHaveBeenCalledWith(root, { types: TYPES, chosenTypeId: null });
    expect(root.dataset.wizard).toBe('ready');
  });

  it('hands over the card chosen while the wizard loads, once the press is over (en: English order)', async () => {
    stubTypes(() => json(TYPES));
    const root = page('en');
    const card = await screen.findByRole('button', { name: 'Select: Travel advice' });
    expect(screen.getAllByRole('button', { name: /^Select: / }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Select: Travel advice',
      'Select: Vaccination',
      'Select: Walk-in',
    ]);
    fireEvent.pointerDown(card);
    await import('./booking-wizard-en'); // the module has arrived meanwhile (the page's own import, asked first, first)
    expect(mount).not.toHaveBeenCalled(); // not between the press and its click
    fireEvent.pointerUp(card);
    fireEvent.click(card);
    await waitFor(() => expect(mount).toHaveBeenCalledOnce());
    expect(mount.mock.calls[0]![1]).toEqual({ types: [TYPES[2], TYPES[1], TYPES[0]], chosenTypeId: 'c' });
    expect(root.textContent).toBe('the wizard');
  });

  it('offline: shows the wizard’s offline notice itself, and its button loads the types again', async () => {
    let offline = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => !offline);
    const fetchMock = stubTypes(() => (offline ? Promise.reject(new TypeError('Failed to fetch')) : json(TYPES)));
    page();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Keine Internetverbindung');
    fireEvent.pointerOver(alert); // offline without a service worker: the wizard's code cannot load
    expect(mount).not.toHaveBeenCalled();
    offline = false;
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    await screen.findByRole('button', { name: 'Auswählen: Impfung' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves a server error and an empty list to the wizard', async () => {
    stubTypes(() => json({ type: 'internal', status: 500 }, 500));
    page();
    await waitFor(() => expect(mount).toHaveBeenCalledWith(expect.any(HTMLElement), { types: null, chosenTypeId: null }));
    document.body.replaceChildren();
    mount.mockClear();
    stubTypes(() => json([]));
    page();
    await waitFor(() => expect(mount).toHaveBeenCalledOnce());
  });

  it('mounts the wizard at once when the URL carries a step (reload, back and forward), without loading the types itself', async () => {
    const fetchMock = stubTypes(() => json(TYPES));
    window.history.replaceState(null, '', '/termin?schritt=2&typ=b');
    const root = page();
    await waitFor(() => expect(mount).toHaveBeenCalledWith(root, { types: null, chosenTypeId: null }));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
