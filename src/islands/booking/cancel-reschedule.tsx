/**
 * "Termin verschieben" / "Reschedule" on the cancellation link's page: the
 * wizard's own calendar and times (StepDateTime, useAvailability) for the
 * booking's type, then POST /api/bookings/reschedule. A time taken meanwhile
 * reloads the calendar with the wizard's "just taken" notice and clears the
 * time; offline it says so and retries the same move; the result shows the
 * new time with its .ics download (same UID as the confirmation email's, so
 * the calendar entry is replaced). Loaded only when the patient asks to move.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';
import type { Lang } from '../../i18n/i18n';
import { formatLongDate } from '../../lib/dates';
import type { LocalizedTypeName } from '../../lib/type-text';
import { AppointmentDetails } from './appointment-details';
import { ApiError, postReschedule, type AppointmentType, type RescheduleResponse } from './api';
import { calendarFileHref, calendarFileName } from './calendar-file';
import { StepDateTime } from './step-date-time';
import { WaitlistLink } from '../waitlist/waitlist-link';
import { waitPhrase } from '../../lib/retry-after';

/** Why the move cannot go on here: the cancel page shows the message instead. */
export type RescheduleFailure = 'cancel.notFound' | 'cancel.byPractice' | 'cancel.alreadyCancelled' | 'reschedule.tooLate' | 'toast.unexpectedError';

export interface RescheduleProps {
  lang: Lang;
  token: string;
  type: AppointmentType;
  typeName: LocalizedTypeName;
  current: { date: string; time: string };
  /** Back to the appointment (cancel or move). */
  onBack: () => void;
  /** Moved: the page's heading says so. */
  onMoved: () => void;
  onFailure: (message: RescheduleFailure) => void;
}

type Moved = RescheduleResponse['booking'];

const isProblem = (error: unknown, status: number, type: string) =>
  error instanceof ApiError && error.status === status && (error.problem?.type ?? '').includes(type);

export default function RescheduleAppointment({ lang, token, type, typeName, current, onBack, onMoved, onFailure }: RescheduleProps) {
  const { t } = useTranslation();
  // The page's heading takes focus (cancel-appointment.tsx); the calendar's own is not focused here.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [date, setDate] = useState<string | null>(current.date);
  const [time, setTime] = useState<string | null>(null);
  // Bumped after a taken time: remounts the calendar, which loads availability afresh.
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<'slotTaken' | 'sameTime' | 'offline' | 'rateLimited' | null>(null);
  /** A 429's wait, said in the patient's language ("in 2 Minuten"); null when the server did not say. */
  const [wait, setWait] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const [moved, setMoved] = useState<Moved | null>(null);

  const submit = async () => {
    if (!date || !time || moving) return;
    if (date === current.date && time === current.time) {
      setNotice('sameTime');
      return;
    }
    setMoving(true);
    try {
      const answer = await postReschedule({ token, appointment_date: date, appointment_time: time, language: lang });
      setMoved(answer.booking);
      onMoved();
    } catch (error) {
      if (isProblem(error, 409, 'slot-unavailable')) {
        // Taken meanwhile (or no longer bookable): say so, clear the time, reload the calendar.
        setNotice('slotTaken');
        setTime(null);
        setAttempt((n) => n + 1);
      } else if (!(error instanceof ApiError) && !navigator.onLine) {
        // Offline: the chosen time stays, the retry sends the same move.
        setNotice('offline');
      } else if (isProblem(error, 429, 'rate-limited')) {
        // Moved too often: nothing changed, the appointment stays where it is.
        setWait(error instanceof ApiError && error.retryAfter !== null ? waitPhrase(error.retryAfter, lang) : null);
        setNotice('rateLimited');
      } else if (isProblem(error, 409, 'too-late')) {
        onFailure('reschedule.tooLate');
      } else if (isProblem(error, 410, 'cancelled-by-patient')) {
        // Cancelled meanwhile through the same link (another tab or device).
        onFailure('cancel.alreadyCancelled');
      } else if (error instanceof ApiError && error.status === 410) {
        // The practice cancelled it meanwhile.
        onFailure('cancel.byPractice');
      } else if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        onFailure('cancel.notFound');
      } else {
        onFailure('toast.unexpectedError');
      }
    } finally {
      setMoving(false);
    }
  };

  if (moved) {
    const href = calendarFileHref({
      bookingId: moved.id,
      typeId: type.id,
      typeName: typeName.text,
      durationMinutes: type.slot_duration_minutes,
      date: moved.appointment_date,
      time: moved.appointment_time,
      lang,
      t,
      sequence: moved.sequence,
    });
    return (
      <section role="status" className="rounded-lg border border-brand-600 bg-brand-50 p-4 sm:p-6">
        <AppointmentDetails
          lang={lang}
          reference={moved.reference}
          typeName={typeName}
          date={moved.appointment_date}
          time={moved.appointment_time}
          priceCents={type.price_cents}
        />
        <p className="mt-4">{t('reschedule.doneText')}</p>
        <p className="mt-2">{t('reschedule.calendarHint')}</p>
        <a
          href={href}
          download={calendarFileName(lang)}
          className="mt-4 inline-block rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50"
        >
          {t('success.addToCalendar')}
        </a>
      </section>
    );
  }

  return (
    // No card around the step's own cards: nested, they left the calendar too little room on a phone.
    <div>
      <Toaster position="bottom-center" richColors closeButton duration={5000} />
      <p className="mb-4 text-slate-700">
        {t('reschedule.current', { date: formatLongDate(current.date, lang), time: t('datetime.time', { time: current.time }) })}
      </p>
      <StepDateTime
        key={attempt}
        headingRef={headingRef}
        type={type}
        typeName={typeName}
        lang={lang}
        date={date}
        time={time}
        slotTaken={notice === 'slotTaken' && 'reschedule'}
        own={current}
        onDate={(d) => {
          setDate(d);
          setTime(null);
        }}
        onTime={(next) => {
          setTime(next);
          if (next && notice !== 'offline') setNotice(null);
        }}
      />
      {(notice === 'sameTime' || notice === 'rateLimited') && (
        <p role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 font-medium text-slate-900">
          {notice === 'sameTime' ? t('reschedule.sameTime') : wait ? t('reschedule.rateLimitedWait', { when: wait }) : t('reschedule.rateLimited')}
        </p>
      )}
      {notice === 'offline' && (
        <div role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-slate-900">
          <p className="font-semibold">{t('booking.offlineTitle')}</p>
          <p className="mt-1">{t('reschedule.offline')}</p>
          <button
            type="button"
            onClick={() => void submit()}
            disabled={moving}
            className="mt-3 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
          >
            {t('booking.retry')}
          </button>
        </div>
      )}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-between">
        <button type="button" onClick={onBack} className="rounded-md border border-slate-300 px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50">
          {t('reschedule.back')}
        </button>
        <button
          type="button"
          onClick={() => void submit()}
          disabled={!date || !time || moving}
          className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {moving ? t('reschedule.moving') : t('reschedule.confirm')}
        </button>
      </div>
      <WaitlistLink lang={lang} query={{ token, until: current.date }} className="mt-6" />
    </div>
  );
}
