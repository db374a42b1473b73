/**
 * The booking page's start-up script (Lighthouse 100 on /termin
 * under load, docs/decisions/011). The page carries the wizard's step 1 as static HTML (React on
 * the server, no island); this script, with no React, loads the types and
 * shows their cards (type-cards.ts, the same markup step 1 renders). React,
 * i18next, the toaster and the wizard load only when the visitor turns to the
 * wizard (pointer over it, a touch, focus, a key), when the URL carries a
 * wizard state (a reload or back/forward into a step, also one that arrives
 * after the page has loaded), or when the types
 * could not be shown here (a server error, none bookable: the wizard says so
 * in its own way). Offline, it shows the wizard's offline notice itself (the
 * wizard's code may not be loadable then), and its retry button loads again. The wizard then renders in place of the static step 1
 * with the loaded types and, if the visitor already chose a card, that
 * choice; focus stays on the same control.
 */
import type { Lang } from '../../i18n/languages';
import { ApiError, fetchAppointmentTypes, type AppointmentType } from './api';
import { startDetailsLifecycle } from './details-storage';
import { reloadForMissingChunk } from './on-demand';
import { sortTypes } from './sort-types';
import { offlineHtml, typeCardsHtml, type TypeCardTexts } from './type-cards';
import { stateOf } from './wizard-url';

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

export function bootWizard(root: HTMLElement) {
  const lang: Lang = root.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(root.dataset.typeCardTexts ?? '{}') as TypeCardTexts;
  let types: AppointmentType[] | null = null;
  let chosenTypeId: string | null = null;
  let started = false;
  let mounted = false;

  /** Step 1's body (placeholders, cards or the offline notice) becomes `html`. */
  const showBody = (html: string) => {
    const body = root.querySelector('section[aria-labelledby="step-type-heading"] > :last-child');
    if (body && body.tagName !== 'H2') body.outerHTML = html;
  };
  const placeholders = root.querySelector('section > [aria-busy="true"]')?.outerHTML ?? '';

  // A card chosen before the wizard is there is handed over (cards are in the types' order);
  // the offline notice's button loads the types again.
  const onClick = (event: Event) => {
    const button = (event.target as Element).closest('button');
    if (button?.closest('[role="alert"]')) {
      showBody(placeholders);
      loadTypes();
      return;
    }
    const card = button?.closest('section > ul > li');
    if (!button || !card || !types) return;
    const index = [...card.parentElement!.children].indexOf(card);
    chosenTypeId = types[index]?.id ?? null;
  };

  const takeOver = () => {
    // Offline without the service worker's copies the wizard's code cannot load: the next interaction tries.
    if (started || (!navigator.onLine && !navigator.serviceWorker?.controller)) return;
    started = true;
    for (const name of INTENT_EVENTS) root.removeEventListener(name, takeOver);
    const wizard = lang === 'de' ? import('./booking-wizard-de') : import('./booking-wizard-en');
    wizard.then(
      async ({ mount }) => {
        // Not between a press and its click: swapping the button then would lose the click.
        await released();
        if (mounted) return;
        root.removeEventListener('click', onClick, true);
        stopTrackingPresses();
        const controls = () => [...root.querySelectorAll('button')];
        const focused = controls().indexOf(document.activeElement as HTMLButtonElement);
        mounted = true;
        mount(root, { types, chosenTypeId });
        // The same markup in the same place: keep focus on the same control (unless the wizard moved on).
        if (focused >= 0 && !root.contains(document.activeElement)) controls()[focused]?.focus({ preventScroll: true });
        root.dataset.wizard = 'ready';
      },
      () => {
        started = false; // a later interaction tries again
        for (const name of INTENT_EVENTS) root.addEventListener(name, takeOver, { passive: true });
        reloadForMissingChunk();
      },
    );
  };

  // A press (pointer or key) lasts until just after its release, when its click has been dispatched.
  let pressed = false;
  let onRelease: Array<() => void> = [];
  const press = () => (pressed = true);
  const release = () =>
    setTimeout(() => {
      pressed = false;
      onRelease.forEach((resolve) => resolve());
      onRelease = [];
    });
  const released = () => (pressed ? new Promise<void>((resolve) => onRelease.push(resolve)) : Promise.resolve());
  const PRESS = ['pointerdown', 'keydown'] as const;
  const RELEASE = ['pointerup', 'pointercancel', 'keyup'] as const;
  for (const name of PRESS) root.addEventListener(name, press, true);
  for (const name of RELEASE) window.addEventListener(name, release, true);
  window.addEventListener('blur', release); // the window, not an element: a key released elsewhere
  const stopTrackingPresses = () => {
    for (const name of PRESS) root.removeEventListener(name, press, true);
    for (const name of RELEASE) window.removeEventListener(name, release, true);
    window.removeEventListener('blur', release);
  };

  root.addEventListener('click', onClick, true);
  startDetailsLifecycle();
  const restoring = () => stateOf(window.location.search, lang).typeId !== null;
  if (restoring()) {
    takeOver();
    return;
  }
  // Back or Forward into a step's entry before the wizard was needed (home page, then Forward twice):
  // the wizard takes over and shows the step the URL names (docs/decisions/029).
  const onPop = () => {
    if (started || !restoring()) return;
    window.removeEventListener('popstate', onPop);
    takeOver();
  };
  window.addEventListener('popstate', onPop);
  for (const name of INTENT_EVENTS) root.addEventListener(name, takeOver, { passive: true });
  const loadTypes = () =>
    fetchAppointmentTypes().then(
      (list) => {
        if (mounted) return;
        if (list.length === 0) return takeOver();
        types = sortTypes(list, lang);
        showBody(typeCardsHtml(types, lang, texts));
      },
      (error: unknown) => {
        if (mounted) return;
        if (!(error instanceof ApiError) && !navigator.onLine) showBody(offlineHtml(texts));
        else takeOver();
      },
    );
  loadTypes();
}
