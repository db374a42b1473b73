/**
 * The booking page's start-up script (issue 14: Lighthouse 100 on /termin
 * under load). The page carries the wizard's step 1 as static HTML (React on
 * the server, no island); this script, with no React, loads the types and
 * shows their cards (type-cards.ts, the same markup step 1 renders). React,
 * i18next, the toaster and the wizard load only when the visitor turns to the
 * wizard (pointer over it, a touch, focus, a key), when the URL carries a
 * wizard state (a reload or back/forward into a step), or when the types
 * could not be shown here (an error, offline, none bookable: the wizard says
 * so in its own way). The wizard then renders in place of the static step 1
 * with the loaded types and, if the visitor already chose a card, that
 * choice; focus stays on the same control.
 */
import type { Lang } from '../../i18n/languages';
import { fetchAppointmentTypes, type AppointmentType } from './api';
import { reloadForMissingChunk } from './on-demand';
import { sortTypes } from './sort-types';
import { typeCardsHtml, type TypeCardTexts } from './type-cards';
import { stateOf } from './wizard-url';

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

export function bootWizard(root: HTMLElement) {
  const lang: Lang = root.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(root.dataset.typeCardTexts ?? '{}') as TypeCardTexts;
  let types: AppointmentType[] | null = null;
  let chosenTypeId: string | null = null;
  let started = false;
  let mounted = false;

  // A card chosen before the wizard is there is handed over (cards are in the types' order).
  const onClick = (event: Event) => {
    const button = (event.target as Element).closest('button');
    const card = button?.closest('section > ul > li');
    if (!button || !card || !types) return;
    const index = [...card.parentElement!.children].indexOf(card);
    chosenTypeId = types[index]?.id ?? null;
  };

  const takeOver = () => {
    if (started) return;
    started = true;
    for (const name of INTENT_EVENTS) root.removeEventListener(name, takeOver);
    const wizard = lang === 'de' ? import('./booking-wizard-de') : import('./booking-wizard-en');
    wizard.then(
      ({ mount }) => {
        root.removeEventListener('click', onClick, true);
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

  root.addEventListener('click', onClick, true);
  const restoring = stateOf(window.location.search, lang).typeId !== null;
  if (restoring) {
    takeOver();
    return;
  }
  for (const name of INTENT_EVENTS) root.addEventListener(name, takeOver, { passive: true });
  fetchAppointmentTypes().then(
    (list) => {
      if (mounted) return;
      if (list.length === 0) return takeOver();
      types = sortTypes(list, lang);
      const placeholder = root.querySelector('section > [aria-busy="true"]');
      placeholder?.insertAdjacentHTML('afterend', typeCardsHtml(types, lang, texts));
      placeholder?.remove();
    },
    () => {
      if (!mounted) takeOver();
    },
  );
}
