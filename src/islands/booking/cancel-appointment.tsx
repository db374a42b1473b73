/**
 * /termin/absagen?token=… (and /en/…): shows the appointment the emailed
 * link points to and cancels it on confirmation, freeing the slot, or moves
 * it to another time of the same type ("Termin verschieben" / "Reschedule",
 * cancel-reschedule.tsx, loaded on demand).
 *
 * The page's heading (h1) is this island's: it follows what the patient is
 * doing (cancel or move, moving, moved, cancelled, a link that is incomplete
 * or no longer valid), and so does the document title; after an action
 * focus moves to it, so a screen reader announces where the patient is.
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { createI18n, localizedPath, type Lang, type TranslationKey } from '../../i18n/i18n';
import { isCancellationToken } from '../../lib/cancellation-token';
import { formatLongDate } from '../../lib/dates';
import { localizedTypeName, type LocalizedTypeName } from '../../lib/type-text';
import { AppointmentDetails } from './appointment-details';
import { ApiError, fetchAppointmentTypes, fetchCancellation, postCancellation, type AppointmentType } from './api';
import { onDemand, reloadForMissingChunk } from './on-demand';
import type { RescheduleFailure } from './cancel-reschedule';
import { sentenceWithTypeName } from './type-name';
import { WaitlistLink } from '../waitlist/waitlist-link';

// The calendar (react-day-picker, date-fns) loads only when the patient asks to move the appointment;
// loaded like the wizard's steps, so offline it fails into the offline state with a retry.
const reschedule = onDemand(() => import('./cancel-reschedule'));

type Appointment = Awaited<ReturnType<typeof fetchCancellation>>;
type Message = 'cancel.notFound' | 'cancel.tooLate' | RescheduleFailure;
type State =
  /** `move`: loading the calendar after "Reschedule". */
  | { kind: 'loading'; move?: boolean }
  | { kind: 'ready' | 'cancelling'; appointment: Appointment; notice?: 'reschedule.typeUnavailable' }
  /** Choosing a new time for the same type; `moved` once done. */
  | { kind: 'reschedule'; appointment: Appointment; type: AppointmentType; moved: boolean }
  | { kind: 'done'; appointment: Appointment }
  /** No token, or one cut short (a mail program wrapped the link): call the practice. */
  | { kind: 'incomplete' }
  | { kind: 'message'; key: Message }
  /** The practice (410 cancelled-by-practice) or the patient (410 cancelled-by-patient) cancelled it: what it was, and that it is off. */
  | { kind: 'practiceCancelled'; appointment: PracticeCancelled }
  | { kind: 'patientCancelled'; appointment: PracticeCancelled }
  /** No connection: says so, with a retry of what failed. */
  | { kind: 'offline'; retry: () => void };

const MESSAGE_HEADINGS: Record<Message, TranslationKey> = {
  'cancel.notFound': 'cancel.heading.invalid',
  'cancel.tooLate': 'cancel.heading.tooLate',
  'reschedule.tooLate': 'cancel.heading.tooLate',
  'toast.unexpectedError': 'cancel.heading.error',
  'cancel.byPractice': 'cancel.byPracticeTitle',
  'cancel.alreadyCancelled': 'cancel.byPatientTitle',
};

function headingOf(state: State): TranslationKey {
  switch (state.kind) {
    case 'loading':
      return state.move ? 'cancel.heading.move' : 'cancel.heading.loading';
    case 'ready':
    case 'cancelling':
      return 'cancel.heading.ready';
    case 'reschedule':
      return state.moved ? 'cancel.heading.moved' : 'cancel.heading.move';
    case 'done':
      return 'cancel.heading.cancelled';
    case 'incomplete':
      return 'cancel.heading.incomplete';
    case 'offline':
      return 'booking.offlineTitle';
    case 'message':
      return MESSAGE_HEADINGS[state.key];
    case 'practiceCancelled':
      return 'cancel.byPracticeTitle';
    case 'patientCancelled':
      return 'cancel.byPatientTitle';
  }
}

const isOffline = (error: unknown) => !(error instanceof ApiError) && !navigator.onLine;

/** The body of a 410 cancelled-by-practice or cancelled-by-patient (docs/decisions/029). */
interface PracticeCancelled {
  appointment_date: string;
  appointment_time: string;
  type_name: string;
  type_name_en: string | null;
  reference: string;
}

function practiceCancellation(error: unknown): PracticeCancelled | null {
  if (!(error instanceof ApiError) || error.status !== 410) return null;
  const body = error.problem as Partial<PracticeCancelled> | null;
  return body?.appointment_date && body.appointment_time && body.type_name && body.reference ? (body as PracticeCancelled) : null;
}

/** What the page shows when loading or cancelling failed. */
function failureState(error: unknown): State {
  const cancelled = practiceCancellation(error);
  if (!cancelled) return { kind: 'message', key: messageFor(error) };
  const byPatient = error instanceof ApiError && /(^|\/)cancelled-by-patient$/.test(error.problem?.type ?? '');
  return byPatient ? { kind: 'patientCancelled', appointment: cancelled } : { kind: 'practiceCancelled', appointment: cancelled };
}

function messageFor(error: unknown): Message {
  if (error instanceof ApiError) {
    if (error.status === 409) return 'cancel.tooLate';
    if (error.status === 404 || error.status === 400) return 'cancel.notFound';
  }
  return 'toast.unexpectedError';
}

export interface CancelAppointmentProps {
  lang: Lang;
  /** The practice's phone as shown, and its tel: link (from the page, so no practice data is bundled). */
  phone: { display: string; href: string };
}

export default function CancelAppointment({ lang, phone }: CancelAppointmentProps) {
  const i18n = useMemo(() => createI18n(lang), [lang]);
  return (
    <I18nextProvider i18n={i18n}>
      <Cancel lang={lang} phone={phone} />
    </I18nextProvider>
  );
}

function Cancel({ lang, phone }: CancelAppointmentProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [token, setToken] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // The token lives only in the address bar: read it in the browser, never at build time.
    const token = new URLSearchParams(window.location.search).get('token');
    setToken(token);
    if (!token || !isCancellationToken(token)) {
      setState({ kind: 'incomplete' });
      return;
    }
    const retry = () => {
      setState({ kind: 'loading' });
      setAttempt((n) => n + 1);
    };
    fetchCancellation(token)
      .then((appointment) => setState({ kind: 'ready', appointment }))
      .catch((error: unknown) => setState(isOffline(error) ? { kind: 'offline', retry } : failureState(error)));
  }, [token, attempt]);

  // The heading and the title follow the state; after the first answer, focus goes to the heading.
  const heading = headingOf(state);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const settled = useRef(false);
  const loaded = state.kind !== 'loading';
  // A layout effect: the title and focus change in the same commit as the
  // heading, never a frame later (a screen reader or a test that finds the
  // new heading finds the new title and focus with it).
  useLayoutEffect(() => {
    document.title = `${t(heading)} – ${t('site.name')}`;
    // Not when the page first shows what the link holds; only a new heading moves focus.
    if (!settled.current) {
      settled.current = loaded;
      return;
    }
    headingRef.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `loaded` matters only until the first answer
  }, [heading, t]);

  const confirm = async (appointment: Appointment) => {
    setState({ kind: 'cancelling', appointment });
    try {
      await postCancellation(token!);
      setState({ kind: 'done', appointment });
    } catch (error) {
      setState(isOffline(error) ? { kind: 'offline', retry: () => void confirm(appointment) } : failureState(error));
    }
  };

  const startReschedule = async (appointment: Appointment) => {
    setState({ kind: 'loading', move: true });
    let chunk = true;
    try {
      const [types] = await Promise.all([
        fetchAppointmentTypes(),
        reschedule.load().catch((error: unknown) => {
          chunk = false;
          throw error;
        }),
      ]);
      const type = types.find((x) => x.id === appointment.appointment_type_id);
      // The type is no longer offered online: the link cannot move it (the practice can), but the
      // appointment stands and can still be cancelled here.
      if (!type) {
        setState({ kind: 'ready', appointment, notice: 'reschedule.typeUnavailable' });
        return;
      }
      setState({ kind: 'reschedule', appointment, type, moved: false });
    } catch (error) {
      if (!chunk && !isOffline(error) && reloadForMissingChunk()) return;
      setState(
        isOffline(error)
          ? { kind: 'offline', retry: () => void startReschedule(appointment) }
          : { kind: 'message', key: error instanceof ApiError && error.status === 404 ? 'cancel.notFound' : 'toast.unexpectedError' },
      );
    }
  };

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1} className="mb-6 text-3xl font-bold text-brand-800">
        {t(heading)}
      </h1>
      <CancelBody state={state} setState={setState} lang={lang} token={token} phone={phone} onConfirm={confirm} onReschedule={startReschedule} />
    </>
  );
}

interface BodyProps {
  state: State;
  setState: (state: State) => void;
  lang: Lang;
  token: string | null;
  phone: CancelAppointmentProps['phone'];
  onConfirm: (appointment: Appointment) => Promise<void>;
  onReschedule: (appointment: Appointment) => Promise<void>;
}

/** What the page shows below its heading, per state. */
function CancelBody({ state, setState, lang, token, phone, onConfirm, onReschedule }: BodyProps) {
  const { t } = useTranslation();
  const bookNew = (
    <a href={localizedPath('/termin', lang)} className="mt-6 inline-block rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
      {t('cancel.bookNew')}
    </a>
  );
  const callUs = (
    <p className="mt-3">
      {t('cancel.callUs')}{' '}
      <a href={phone.href} className="font-semibold whitespace-nowrap text-brand-800 underline">
        {phone.display}
      </a>
    </p>
  );

  if (state.kind === 'loading') {
    return <div aria-busy="true" aria-label={t('cancel.loading')} className="h-40 animate-pulse rounded-lg bg-slate-100" />;
  }
  if (state.kind === 'offline') {
    return (
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-slate-900">
        <p>{t('cancel.offline')}</p>
        <button type="button" onClick={state.retry} className="mt-4 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
          {t('booking.retry')}
        </button>
      </div>
    );
  }
  if (state.kind === 'incomplete') {
    return (
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-slate-900">
        <p>{t('cancel.missingToken')}</p>
        {callUs}
      </div>
    );
  }
  if (state.kind === 'message') {
    return (
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-slate-900">
        <p>{t(state.key)}</p>
        {callUs}
        {bookNew}
      </div>
    );
  }
  if (state.kind === 'practiceCancelled' || state.kind === 'patientCancelled') {
    const c = state.appointment;
    const when = { date: formatLongDate(c.appointment_date, lang), time: t('datetime.time', { time: c.appointment_time }) };
    return (
      <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-slate-900 sm:p-6">
        <AppointmentDetails
          lang={lang}
          reference={c.reference}
          typeName={localizedTypeName(c.type_name, c.type_name_en, lang)}
          date={c.appointment_date}
          time={c.appointment_time}
          priceCents={null}
        />
        <p className="mt-4">{state.kind === 'patientCancelled' ? t('cancel.byPatient', when) : t('cancel.byPractice')}</p>
        {state.kind === 'practiceCancelled' && callUs}
        {bookNew}
      </div>
    );
  }
  const a = state.appointment;
  // A German name standing in for a missing English one is marked lang="de" (src/lib/type-text.ts).
  const name = localizedTypeName(a.type_name, a.type_name_en, lang);
  const RescheduleAppointment = reschedule.get()?.default;
  if (state.kind === 'reschedule' && RescheduleAppointment) {
    return (
      <RescheduleAppointment
        lang={lang}
        token={token!}
        type={state.type}
        typeName={name}
        current={{ date: a.appointment_date, time: a.appointment_time }}
        onBack={() => setState({ kind: 'ready', appointment: a })}
        onMoved={() => setState({ ...state, moved: true })}
        onFailure={(key) => setState({ kind: 'message', key })}
      />
    );
  }
  const details = (
    <AppointmentDetails lang={lang} reference={a.reference} typeName={name} date={a.appointment_date} time={a.appointment_time} priceCents={a.price_cents} />
  );
  if (state.kind === 'done') {
    return (
      <div role="status" className="rounded-lg border border-brand-600 bg-brand-50 p-4 sm:p-6">
        {details}
        <p className="mt-4">{t('cancel.doneText')}</p>
        {bookNew}
      </div>
    );
  }
  return (
    <div className="rounded-lg border border-slate-200 p-4 sm:p-6">
      {details}
      <h2 className="mt-6 text-xl font-semibold text-slate-900">{t('cancel.question')}</h2>
      <ConfirmCancel
        lang={lang}
        typeName={name}
        date={a.appointment_date}
        time={a.appointment_time}
        busy={state.kind === 'cancelling'}
        onConfirm={() => void onConfirm(a)}
      />
      <p className="mt-6 text-slate-700">{t('cancel.or')}</p>
      <button
        type="button"
        onClick={() => void onReschedule(a)}
        disabled={state.kind === 'cancelling'}
        className="mt-2 rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70"
      >
        {t('cancel.reschedule')}
      </button>
      {token && <WaitlistLink lang={lang} query={{ token, until: a.appointment_date }} className="mt-6" />}
      {state.kind === 'ready' && state.notice && (
        <p role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-slate-900">
          {t(state.notice)}
        </p>
      )}
    </div>
  );
}

/**
 * "Termin absagen" asks once, naming what goes (docs/decisions/029): an
 * alert dialog (Radix: focus kept inside, Escape and "Behalten" close it and
 * keep the appointment; focus returns to the button).
 */
function ConfirmCancel(props: { lang: Lang; typeName: LocalizedTypeName; date: string; time: string; busy: boolean; onConfirm: () => void }) {
  const { t } = useTranslation();
  const when = { date: formatLongDate(props.date, props.lang), time: t('datetime.time', { time: props.time }) };
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger
        disabled={props.busy}
        className="mt-3 rounded-md bg-red-700 px-5 py-3 font-semibold text-white hover:bg-red-800 disabled:opacity-70"
      >
        {props.busy ? t('cancel.cancelling') : t('cancel.confirm')}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{t('cancel.dialog.title', when)}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-slate-700">
            {sentenceWithTypeName((type) => t('cancel.dialog.text', { type, ...when }), props.typeName)}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className="rounded-md border border-slate-300 bg-white px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50">
              {t('cancel.dialog.keep')}
            </AlertDialog.Cancel>
            <AlertDialog.Action onClick={props.onConfirm} className="rounded-md bg-red-700 px-5 py-3 font-semibold text-white hover:bg-red-800">
              {t('cancel.dialog.confirm')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
