/**
 * The booking wizard island (/termin, /en/termin): type → date and time →
 * details → success. The server decides availability and re-checks
 * everything on booking; this island only shows and asks.
 *
 * The page mounts it through booking-wizard-de.tsx / -en.tsx, which bring
 * only their language's translations, once the visitor turns to it: until
 * then the page's start-up script (wizard-boot.ts) shows step 1 without
 * React and hands over the types it loaded and the card chosen meanwhile.
 * Steps 2, 3 and the success screen are loaded on demand (see `stepModules`).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Toaster, toast } from 'sonner';
import { createI18n, type Lang } from '../../i18n/i18n';
import { berlinToday } from '../../lib/berlin-time';
import { localizedTypeName } from '../../lib/type-text';
import { fetchAppointmentTypes, ApiError, type AppointmentType, type BookingResponse } from './api';
import { freshDaysOf, type FreshDays } from './fresh-days';
import { onDemand, reloadForMissingChunk } from './on-demand';
import { StepType } from './step-type';
import { canGoNext, initialWizardState, progressOf, TOTAL_STEPS, wizardReducer, type WizardAction } from './wizard-state';
import { useWizardHistory } from './wizard-history';
import type { BookedWith } from './step-success';
import { clearDetails, loadDetails } from './details-storage';
import { sortTypes } from './sort-types';
import { animateSteps } from './step-transitions';

export { sortTypes } from './sort-types';

// The calendar (react-day-picker, date-fns) and the form validation (react-hook-form,
// zod) are most of the wizard's weight and none of it is needed to show step 1, so
// those steps are separate chunks (the JS budget, docs/decisions/007). Step 2 starts loading when
// the visitor points at or focuses the type list, each later step while the step
// before it is shown; the wizard moves to a step once its module is here, so a step
// renders at once with its heading focused.
const stepModules = {
  2: onDemand(() => import('./step-date-time')),
  3: onDemand(() => import('./step-details')),
  5: onDemand(() => import('./step-success')),
};
const prefetch = (step: keyof typeof stepModules) => void stepModules[step].load().catch(() => {});
// The step transition animation only matters once the visitor moves on, so
// auto-animate is fetched with step 2, on the first pointer or focus.
const animation = onDemand(() => import('@formkit/auto-animate'));

export interface BookingWizardProps {
  lang: Lang;
}

/** What the start-up script (wizard-boot.ts) hands over when the wizard takes over step 1. */
export interface WizardHandover {
  /** The types it loaded and shows, in the page's order; null: load them here. */
  types?: AppointmentType[] | null;
  /** The card the visitor chose before the wizard was there. */
  chosenTypeId?: string | null;
}

/** With both languages' resources (tests); the page uses the one-language wrappers. */
export default function BookingWizard({ lang }: BookingWizardProps) {
  const i18n = useMemo(() => createI18n(lang), [lang]);
  return <BookingWizardWithI18n lang={lang} i18n={i18n} />;
}

export function BookingWizardWithI18n({ lang, i18n, handover }: BookingWizardProps & { i18n: I18n; handover?: WizardHandover }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Toaster position="bottom-center" richColors closeButton duration={5000} />
      <Wizard lang={lang} handover={handover} />
    </I18nextProvider>
  );
}

function Wizard({ lang, handover }: { lang: Lang; handover?: WizardHandover }) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(wizardReducer, initialWizardState);
  const [types, setTypes] = useState<AppointmentType[] | null>(handover?.types ?? null);
  const [typesError, setTypesError] = useState<'offline' | null>(null);
  const [typesAttempt, setTypesAttempt] = useState(0);
  const stepsRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const animatedRef = useRef(false);
  /** The visitor is about to choose a type: fetch step 2 and start animating step changes. */
  const onIntent = () => {
    prefetch(2);
    if (animatedRef.current) return;
    animatedRef.current = true;
    animation.load().then(
      ({ default: autoAnimate }) => stepsRef.current && animateSteps(autoAnimate, stepsRef.current),
      () => (animatedRef.current = false),
    );
  };
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [availabilityVersion, setAvailabilityVersion] = useState(0);
  /** Set when the chosen time was just taken; step 2 says so until another time is chosen. */
  const [slotTaken, setSlotTaken] = useState(false);
  // The current times a refusal answered, until the next refusal or another type.
  const [freshDays, setFreshDays] = useState<FreshDays | null>(null);
  /**
   * What the patient typed in step 3, so going back (or a taken time) loses nothing; a reload
   * finds it in this tab's sessionStorage (details-storage.ts), removed on success.
   */
  const detailsRef = useRef<Record<string, unknown> | null>(loadDetails());
  /** The booking made, how its emails went and what the patient sent with it, for the success screen (memory only). */
  const [booked, setBooked] = useState<{ booking: BookingResponse['booking']; email: BookingResponse['email'] | null; with: BookedWith } | null>(null);

  useEffect(() => {
    // Already loaded by the start-up script (the first attempt only; a retry loads afresh).
    if (typesAttempt === 0 && handover?.types) return;
    let active = true;
    fetchAppointmentTypes()
      .then((list) => {
        if (!active) return;
        setTypesError(null);
        setTypes(sortTypes(list, lang));
      })
      .catch((error: unknown) => {
        if (!active) return;
        setTypes([]);
        if (!(error instanceof ApiError) && !navigator.onLine) {
          // Offline: the step says so with a retry button instead of "no types bookable".
          setTypesError('offline');
          return;
        }
        toast.error(t('toast.bookingError'), {
          description: t(error instanceof ApiError ? 'appointmentTypes.loadError' : 'appointmentTypes.unexpectedError'),
        });
      });
    return () => {
      active = false;
    };
  }, [t, lang, typesAttempt, handover]);
  const retryTypes = () => {
    setTypes(null);
    setTypesError(null);
    setTypesAttempt((n) => n + 1);
  };

  // Each step is a history entry; Back never offers a booking already made (wizard-history.ts).
  const wizardHistory = useWizardHistory(state, dispatch, lang);
  // A restored type that is not (or no longer) offered starts afresh.
  useEffect(() => {
    if (types && state.typeId && !types.some((x) => x.id === state.typeId)) dispatch({ type: 'reset' });
  }, [types, state.typeId]);
  // A restored step whose module has not arrived yet: fetch it, then render.
  const [, setArrived] = useState(0);
  useEffect(() => {
    if (state.step === 1) return;
    const module = stepModules[state.step];
    if (module.get()) return;
    module.load().then(
      () => setArrived((n) => n + 1),
      () => {
        if (!reloadForMissingChunk()) toast.error(t('toast.error'), { description: t('toast.unexpectedError') });
      },
    );
  }, [state.step, t]);

  // Each step starts at its top (docs/decisions/029): once the new step has rendered (its module
  // may arrive later than the step change, after Back or Forward), its heading is scrolled to just
  // below the fixed header and focused for screen readers. A layout effect, before the browser
  // paints the new step at the old scroll position; not on the first render (a reload keeps its place).
  const stepShown = useRef(state.step);
  const focusPending = useRef(false);
  useLayoutEffect(() => {
    if (stepShown.current !== state.step) {
      stepShown.current = state.step;
      focusPending.current = true;
    }
    const heading = headingRef.current;
    if (!focusPending.current || !heading?.isConnected) return;
    focusPending.current = false;
    showStepHeading(heading, rootRef.current);
  });

  const type = types?.find((x) => x.id === state.typeId) ?? null;
  // A German name standing in for a missing English one is marked lang="de" (src/lib/type-text.ts).
  const typeName = (x: AppointmentType) => localizedTypeName(x.name, x.name_en, lang);
  const progress = progressOf(state.step);
  const stepLabels = [t('booking.steps.type'), t('booking.steps.datetime'), t('booking.steps.form'), t('booking.steps.confirm')];
  const shownStep = Math.min(state.step, TOTAL_STEPS);

  const stateRef = useRef(state);
  stateRef.current = state;
  /** Dispatches once the module of the step the action leads to has arrived. */
  const go = (action: WizardAction) => {
    const target = wizardReducer(stateRef.current, action).step;
    const module = target === 1 ? undefined : stepModules[target];
    if (!module || module.get()) {
      dispatch(action);
      return;
    }
    module.load().then(
      () => dispatch(action),
      () => {
        if (!reloadForMissingChunk()) toast.error(t('toast.error'), { description: t('toast.unexpectedError') });
      },
    );
  };
  const choose = (x: AppointmentType) => {
    if (x.id !== stateRef.current.typeId) setFreshDays(null);
    go({ type: 'chooseType', typeId: x.id, today: x.max_advance_days === 0 ? berlinToday() : null });
  };
  /** 409 slot-unavailable: back to the calendar with fresh availability, the time cleared, the details kept. */
  const onSlotTaken = useCallback((problem: unknown) => {
    setFreshDays(freshDaysOf(problem));
    setSlotTaken(true);
    setAvailabilityVersion((v) => v + 1);
    dispatch({ type: 'slotTaken' });
  }, []);
  // Taking over from the start-up script means the visitor turned to the wizard (the
  // intent step 1 waits for), and a card chosen meanwhile is chosen now, as the click would have.
  const handedChoiceRef = useRef(handover ? (handover.chosenTypeId ?? '') : null);
  useEffect(() => {
    const id = handedChoiceRef.current;
    if (id === null) return;
    handedChoiceRef.current = null;
    if (stateRef.current.step === 1) onIntent();
    const chosen = id ? types?.find((x) => x.id === id) : undefined;
    if (chosen) choose(chosen);
  });
  useEffect(() => {
    if (state.step === 2) prefetch(3);
    if (state.step === 3) prefetch(5);
  }, [state.step]);
  const DateTime = stepModules[2].get();
  const Details = stepModules[3].get();
  const Success = stepModules[5].get();

  return (
    <div ref={rootRef} className="mx-auto max-w-4xl">
      <div className="mb-6">
        <div className="mb-2 flex justify-between text-sm text-slate-600">
          <span>{t('booking.stepOf', { step: shownStep, total: TOTAL_STEPS })}</span>
          <span>{stepLabels[shownStep - 1]}</span>
        </div>
        <div
          role="progressbar"
          aria-label={t('booking.progress')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          aria-valuetext={`${t('booking.stepOf', { step: shownStep, total: TOTAL_STEPS })}: ${stepLabels[shownStep - 1]}`}
          className="h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
        </div>
      </div>

      <div ref={stepsRef} onPointerOver={state.step === 1 ? onIntent : undefined} onFocus={state.step === 1 ? onIntent : undefined}>
        {state.step === 1 && (
          <StepType
            headingRef={headingRef}
            types={types}
            selectedId={state.typeId}
            lang={lang}
            offline={typesError === 'offline'}
            onRetry={retryTypes}
            onChoose={choose}
          />
        )}
        {state.step === 2 && type && DateTime && (
          <DateTime.StepDateTime
            key={`${type.id}-${availabilityVersion}`}
            headingRef={headingRef}
            type={type}
            typeName={typeName(type)}
            lang={lang}
            date={state.date}
            time={state.time}
            slotTaken={slotTaken}
            fresh={freshDays}
            onDate={(date) => go({ type: 'chooseDate', date })}
            onTime={(time) => {
              if (time) setSlotTaken(false);
              go({ type: 'chooseTime', time });
            }}
          />
        )}
        {state.step === 3 && type && state.date && state.time && Details && (
          <Details.StepDetails
            headingRef={headingRef}
            type={type}
            typeName={typeName(type)}
            lang={lang}
            date={state.date}
            time={state.time}
            savedValues={detailsRef}
            onBooked={(result, bookedWith) => {
              setBooked({ booking: result.booking, email: result.email ?? null, with: bookedWith });
              detailsRef.current = null;
              clearDetails();
              wizardHistory.finish();
              go({ type: 'booked' });
            }}
            onSlotTaken={onSlotTaken}
          />
        )}
        {state.step === 5 && type && state.date && state.time && Success && booked && (
          <Success.StepSuccess
            headingRef={headingRef}
            type={type}
            typeName={typeName(type)}
            booking={booked.booking}
            emailOutcome={booked.email}
            bookedWith={booked.with}
            lang={lang}
            date={state.date}
            time={state.time}
            onNew={() => {
              setBooked(null);
              wizardHistory.restart();
              go({ type: 'reset' });
            }}
          />
        )}
      </div>

      {state.step !== 5 && (
        <div className="mt-8 flex justify-between">
          <button
            type="button"
            onClick={() => go({ type: 'back' })}
            disabled={state.step === 1}
            className="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {t('booking.back')}
          </button>
          {state.step < 3 && (
            <button
              type="button"
              onClick={() => go({ type: 'next' })}
              disabled={!canGoNext(state)}
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {t('booking.next')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Scrolls so the step's heading sits just below the fixed site header (with
 * the progress bar above it when that fits on the screen too), and focuses it.
 * The step transition (auto-animate keeps the old step in place while it
 * fades) and the browser's scroll anchoring move the page after this commit:
 * seen on a phone, where "Weiter" from the foot of step 2 opened step 3
 * mid-form. So the heading is held in place until the transition has ended,
 * unless the patient scrolls meanwhile.
 */
function showStepHeading(heading: HTMLElement, root: HTMLElement | null) {
  // The header's bottom edge, not its height: it shrinks while the page scrolls (a CSS transition).
  const header = () => document.getElementById('site-nav')?.getBoundingClientRect().bottom ?? 0;
  const place = () => {
    const headingTop = heading.getBoundingClientRect().top + window.scrollY - header() - 16;
    const rootTop = root ? root.getBoundingClientRect().top + window.scrollY - header() - 16 : headingTop;
    // The progress bar above the heading when both fit in the upper third of the screen; else the heading.
    const top = headingTop - rootTop < window.innerHeight / 3 ? rootTop : headingTop;
    window.scrollTo({ top: Math.max(0, top), behavior: 'instant' });
  };
  place();
  heading.focus({ preventScroll: true });
  if (typeof requestAnimationFrame !== 'function') return;
  // At least 700 ms, and on a busy device for as long as the step transition
  // (or the header's) still runs, up to 3 s.
  const start = performance.now();
  const animating = () =>
    typeof document.getAnimations === 'function' && document.getAnimations().some((a) => a.playState === 'running');
  const done = () => {
    const elapsed = performance.now() - start;
    return elapsed > 3000 || (elapsed > 700 && !animating());
  };
  let patientScrolled = false;
  const stop = () => (patientScrolled = true);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  for (const name of events) window.addEventListener(name, stop, { passive: true, once: true });
  const hold = () => {
    if (patientScrolled || !heading.isConnected || done()) {
      for (const name of events) window.removeEventListener(name, stop);
      return;
    }
    const top = heading.getBoundingClientRect().top;
    if (top < header() || top > window.innerHeight / 3) place();
    requestAnimationFrame(hold);
  };
  requestAnimationFrame(hold);
}
