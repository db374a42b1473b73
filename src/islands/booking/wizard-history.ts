/**
 * The wizard's steps in the browser history (wizard-url.ts has the URLs):
 * the URL on load and every back/forward restore type, date and time; a
 * step change pushes an entry, a new date or time within a step replaces it.
 *
 * A booking made is never offered again by Back: every entry the
 * wizard writes carries the id of its booking run in `history.state`. Once a
 * run has booked, its id is noted as finished (sessionStorage, so a reload of
 * the success screen followed by Back is covered too; only these random ids,
 * nothing the patient chose or typed); an entry of a finished run that Back or
 * Forward lands on starts a new booking at step 1 instead of restoring step 2
 * with the booked time and "Next" ready, and is rewritten to the plain page.
 */
import { useEffect, useLayoutEffect, useRef, type Dispatch } from 'react';
import type { Lang } from '../../i18n/languages';
import { initialWizardState, type WizardAction, type WizardState } from './wizard-state';
import { searchOf, stateOf } from './wizard-url';

const FINISHED_KEY = 'bookingWizard.finishedRuns';
/** Where sessionStorage is blocked: this page's memory. */
const finishedHere = new Set<string>();

function finishedRuns(): Set<string> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(FINISHED_KEY) ?? '[]') as unknown;
    return new Set([...finishedHere, ...(Array.isArray(stored) ? stored.filter((x): x is string => typeof x === 'string') : [])]);
  } catch {
    return finishedHere;
  }
}

function markFinished(run: string): void {
  finishedHere.add(run);
  try {
    // The last few are enough: older entries lie further back than anyone goes.
    sessionStorage.setItem(FINISHED_KEY, JSON.stringify([...finishedRuns()].slice(-20)));
  } catch {
    // Storage blocked: this page still remembers.
  }
}

const newRun = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
const runOf = (state: unknown) => (state && typeof state === 'object' && 'bookingRun' in state ? String(state.bookingRun) : null);

export interface WizardHistory {
  /** The booking went through: Back must not offer it again. */
  finish(): void;
  /** A new booking begins ("New booking"). */
  restart(): void;
}

export function useWizardHistory(state: WizardState, dispatch: Dispatch<WizardAction>, lang: Lang): WizardHistory {
  const runRef = useRef<string>('');
  const restoredRef = useRef(false);
  // The search of the entry the wizard last wrote or was brought to. When the
  // location differs, Back or Forward has moved the page and its popstate is
  // still on its way: the state of the step being left must not be written
  // over the entry the browser landed on (an answer arriving during Back did
  // that, and the next Back led to step 2 again instead of the page before).
  const writtenRef = useRef<string | null>(null);
  // The state a restore asked for, until it has rendered. The render before it still shows the
  // state the wizard started with (step 1): written to the address, that replaced the entry a
  // reload on step 3 stood on with the plain page and then pushed step 3 again, so Back led to
  // step 1 and only then to step 2.
  const pendingRef = useRef<WizardState | null>(null);
  /** The state shown when the restore was asked for: the render it must not write. */
  const staleRef = useRef<WizardState | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    const plainPage = () => `${window.location.pathname}${window.location.hash}`;
    const restore = () => {
      writtenRef.current = window.location.search;
      const run = runOf(window.history.state);
      if (run && finishedRuns().has(run)) {
        runRef.current = newRun();
        window.history.replaceState({ bookingRun: runRef.current }, '', plainPage());
        writtenRef.current = window.location.search;
        pendingRef.current = initialWizardState;
        staleRef.current = stateRef.current;
        dispatch({ type: 'reset' });
        return;
      }
      if (run) runRef.current = run;
      const restored = stateOf(window.location.search, lang);
      pendingRef.current = restored;
      staleRef.current = stateRef.current;
      dispatch({ type: 'restore', state: restored });
    };
    runRef.current = runOf(window.history.state) ?? newRun();
    if (window.location.search || finishedRuns().has(runRef.current)) restore();
    // The entry the page was loaded in belongs to this run too (a reload on step 3, then a booking, then Back).
    else window.history.replaceState({ ...(window.history.state as object | null), bookingRun: runRef.current }, '');
    writtenRef.current = window.location.search;
    restoredRef.current = true;
    window.addEventListener('popstate', restore);
    return () => window.removeEventListener('popstate', restore);
  }, [lang, dispatch]);

  const syncedStepRef = useRef(state.step);
  // A layout effect: it writes in the same task that renders the state, so a
  // popstate can never come between them. As a passive effect it could run
  // after Back's popstate had restored step 1 (the restore had already taken
  // the landed entry's search), and wrote the step being left over that entry
  // (seen when the first free date took two requests).
  useLayoutEffect(() => {
    if (!restoredRef.current) return;
    if (pendingRef.current) {
      if (state === pendingRef.current) {
        // The restored state is the entry's own: written as it is, never as a new entry.
        pendingRef.current = null;
        syncedStepRef.current = state.step;
      } else if (state === staleRef.current) {
        // The render before the restore: nothing to write.
        return;
      } else {
        // A restore to what was already shown did not render again; this is a later change.
        pendingRef.current = null;
      }
    }
    if (writtenRef.current !== null && window.location.search !== writtenRef.current) return;
    const search = searchOf(state, lang);
    const changedStep = syncedStepRef.current !== state.step;
    syncedStepRef.current = state.step;
    const entry = { bookingRun: runRef.current };
    if (search === window.location.search && runOf(window.history.state) === runRef.current) return;
    const url = `${window.location.pathname}${search}${window.location.hash}`;
    if (changedStep && state.step !== 5 && search !== window.location.search) window.history.pushState(entry, '', url);
    else window.history.replaceState(entry, '', url);
    writtenRef.current = search;
  }, [state, lang]);

  return {
    finish: () => markFinished(runRef.current),
    restart: () => {
      runRef.current = newRun();
    },
  };
}
