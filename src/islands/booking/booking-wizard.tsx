/**
 * The booking wizard island (/termin, /en/termin): type → date and time →
 * details → success. The server decides availability and re-checks
 * everything on booking; this island only shows and asks.
 */
import { useAutoAnimate } from '@formkit/auto-animate/react';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Toaster, toast } from 'sonner';
import { createI18n, type Lang } from '../../i18n/i18n';
import { berlinToday } from '../../lib/berlin-time';
import { fetchAppointmentTypes, ApiError, type AppointmentType } from './api';
import { StepDateTime } from './step-date-time';
import { StepDetails } from './step-details';
import { StepSuccess } from './step-success';
import { StepType } from './step-type';
import { canGoNext, initialWizardState, progressOf, TOTAL_STEPS, wizardReducer } from './wizard-state';

export interface BookingWizardProps {
  lang: Lang;
}

export default function BookingWizard({ lang }: BookingWizardProps) {
  const i18n = useMemo(() => createI18n(lang), [lang]);
  return (
    <I18nextProvider i18n={i18n}>
      <Toaster position="top-center" richColors closeButton duration={5000} />
      <Wizard lang={lang} />
    </I18nextProvider>
  );
}

function Wizard({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(wizardReducer, initialWizardState);
  const [types, setTypes] = useState<AppointmentType[] | null>(null);
  const [animated] = useAutoAnimate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [availabilityVersion, setAvailabilityVersion] = useState(0);

  useEffect(() => {
    let active = true;
    fetchAppointmentTypes()
      .then((list) => active && setTypes(list))
      .catch((error: unknown) => {
        if (!active) return;
        setTypes([]);
        toast.error(t('toast.bookingError'), {
          description: t(error instanceof ApiError ? 'appointmentTypes.loadError' : 'appointmentTypes.unexpectedError'),
        });
      });
    return () => {
      active = false;
    };
  }, [t]);

  // Each step change starts at the top, with focus on the step's heading for screen readers.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [state.step]);

  const type = types?.find((x) => x.id === state.typeId) ?? null;
  const typeName = (x: AppointmentType) => (lang === 'en' && x.name_en ? x.name_en : x.name);
  const progress = progressOf(state.step);
  const stepLabels = [t('booking.steps.type'), t('booking.steps.datetime'), t('booking.steps.form'), t('booking.steps.confirm')];
  const shownStep = Math.min(state.step, TOTAL_STEPS);

  const onSlotTaken = useCallback(() => setAvailabilityVersion((v) => v + 1), []);

  return (
    <div className="mx-auto max-w-4xl">
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

      <div ref={animated}>
        {state.step === 1 && (
          <StepType
            headingRef={headingRef}
            types={types}
            selectedId={state.typeId}
            lang={lang}
            onChoose={(x) =>
              dispatch({ type: 'chooseType', typeId: x.id, today: x.max_advance_days === 0 ? berlinToday() : null })
            }
          />
        )}
        {state.step === 2 && type && (
          <StepDateTime
            key={`${type.id}-${availabilityVersion}`}
            headingRef={headingRef}
            type={type}
            typeName={typeName(type)}
            lang={lang}
            date={state.date}
            time={state.time}
            onDate={(date) => dispatch({ type: 'chooseDate', date })}
            onTime={(time) => dispatch({ type: 'chooseTime', time })}
          />
        )}
        {state.step === 3 && type && state.date && state.time && (
          <StepDetails
            headingRef={headingRef}
            type={type}
            typeName={typeName(type)}
            lang={lang}
            date={state.date}
            time={state.time}
            onBooked={() => dispatch({ type: 'booked' })}
            onSlotTaken={onSlotTaken}
          />
        )}
        {state.step === 5 && type && state.date && state.time && (
          <StepSuccess
            headingRef={headingRef}
            typeName={typeName(type)}
            lang={lang}
            date={state.date}
            time={state.time}
            onNew={() => dispatch({ type: 'reset' })}
          />
        )}
      </div>

      {state.step !== 5 && (
        <div className="mt-8 flex justify-between">
          <button
            type="button"
            onClick={() => dispatch({ type: 'back' })}
            disabled={state.step === 1}
            className="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {t('booking.back')}
          </button>
          {state.step < 3 && (
            <button
              type="button"
              onClick={() => dispatch({ type: 'next' })}
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
