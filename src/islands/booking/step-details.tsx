import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { localizedPath, type Lang } from '../../i18n/languages';
import { patientFormSchemaFor, type PatientForm } from '../../lib/booking-request-schema';
import { typedDateToIso } from '../../lib/booking-schema';
import { waitPhrase } from '../../lib/retry-after';
import { formatLongDate } from '../../lib/dates';
import { formatPrice } from '../../lib/price';
import type { LocalizedTypeName } from '../../lib/type-text';
import { ApiError, postBooking, smsChoiceOffered, type AppointmentType, type BookingResponse } from './api';
import { saveDetails } from './details-storage';
import { bookingToast } from './email-toast';
import type { BookedWith } from './step-success';
import { EmailHintLine, useEmailHint } from '../email-hint/email-hint';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  type: AppointmentType;
  typeName: LocalizedTypeName;
  lang: Lang;
  date: string;
  time: string;
  /** The wizard's memory of what was typed here (never stored anywhere else). */
  savedValues: { current: Record<string, unknown> | null };
  /** Booked: the answer, with the address and reminder choice the success screen repeats. */
  onBooked: (response: BookingResponse, bookedWith: BookedWith) => void;
  /** The time was taken meanwhile (409 slot-unavailable): back to the calendar. */
  /** The time was taken meanwhile (409 slot-unavailable); the problem carries the date's current times. */
  onSlotTaken: (problem: unknown) => void;
}

const EMPTY = { first_name: '', last_name: '', birth_date: '', phone: '', email: '', consent: false as unknown as true };

type Field = 'first_name' | 'last_name' | 'birth_date' | 'phone' | 'email';

/** The form's own values of what was kept (the reminder tick is the step's own state). */
function formValuesOf(saved: Record<string, unknown> | null): Partial<PatientForm> {
  if (!saved) return {};
  const { reminder: _reminder, sms: _sms, ...values } = saved;
  return values as Partial<PatientForm>;
}

export function StepDetails({ headingRef, type, typeName, lang, date, time, savedValues, onBooked, onSlotTaken }: Props) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  // The reminder tick is kept with the typed fields: going back, a taken time and a reload (details-storage.ts).
  const [reminder, setReminder] = useState(() => savedValues.current?.reminder === true);
  const reminderRef = useRef(reminder);
  reminderRef.current = reminder;
  // "Per SMS benachrichtigen" (docs/decisions/043-sms-second-channel.md): offered only when the practice sends SMS.
  const [sms, setSms] = useState(() => savedValues.current?.sms === true);
  const smsRef = useRef(sms);
  smsRef.current = sms;
  const [smsOffered, setSmsOffered] = useState(false);
  useEffect(() => {
    let live = true;
    void smsChoiceOffered(type.id, date).then((offered) => live && setSmsOffered(offered));
    return () => {
      live = false;
    };
  }, [type.id, date]);
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    setError,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<PatientForm>({
    resolver: zodResolver(patientFormSchemaFor(lang)),
    mode: 'onTouched',
    defaultValues: { ...EMPTY, ...formValuesOf(savedValues.current) },
  });
  // Leaving the step (back, a taken time) keeps what was typed and ticked for the way forward.
  useEffect(() => () => void (savedValues.current = { ...getValues(), reminder: reminderRef.current, sms: smsRef.current }), [getValues, savedValues]);
  // A reload keeps it too: this tab's sessionStorage only, as it is typed (details-storage.ts).
  useEffect(() => {
    const subscription = watch((values) => saveDetails({ ...values, reminder: reminderRef.current, sms: smsRef.current }));
    return () => subscription.unsubscribe();
  }, [watch]);
  const changeReminder = (ticked: boolean) => {
    setReminder(ticked);
    reminderRef.current = ticked;
    saveDetails({ ...getValues(), reminder: ticked, sms: smsRef.current });
  };
  const changeSms = (ticked: boolean) => {
    setSms(ticked);
    smsRef.current = ticked;
    saveDetails({ ...getValues(), reminder: reminderRef.current, sms: ticked });
  };

  const submit = handleSubmit(async (values) => {
    setSubmitting(true);
    try {
      const response = await postBooking({
        appointment_type_id: type.id,
        appointment_date: date,
        appointment_time: time,
        first_name: values.first_name,
        last_name: values.last_name,
        birth_date: typedDateToIso(values.birth_date, lang),
        phone: values.phone,
        email: values.email,
        consent: values.consent,
        language: lang,
        reminder,
        ...(smsOffered && sms ? { sms: true } : {}),
      });
      try {
        const spec = bookingToast(response.email);
        const description = [t(spec.description), spec.detail ?? (spec.description === 'toast.emailConfig' ? t('toast.unknownError') : '')]
          .filter(Boolean)
          .join(' ');
        toast.success(t(spec.title), { description });
      } catch {
        toast.success(t('toast.bookingSuccess'), { description: t('toast.emailNotSent') });
      }
      onBooked(response, { email: values.email, reminder });
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        // An abuse limit (per connection or per recipient): nothing was booked; the details stay for later.
        // Retry-After says how long: the toast names it in the patient's language (docs/decisions/029).
        const wait = error.retryAfter === null ? null : waitPhrase(error.retryAfter, lang);
        toast.error(t('toast.rateLimitedTitle'), { description: wait ? t('toast.rateLimitedWait', { when: wait }) : t('toast.rateLimited') });
      } else if (error instanceof ApiError && error.status === 400 && error.problem?.type === 'phone-not-mobile') {
        // SMS only to a mobile number: the field says so, nothing was booked.
        setError('phone', { message: 'bookingForm.errors.phoneNotMobile' });
        setFocus('phone');
      } else if (error instanceof ApiError && error.status === 409 && error.problem?.type === 'slot-unavailable') {
        onSlotTaken(error.problem);
      } else if (error instanceof ApiError) {
        toast.error(t('toast.bookingError'), { description: t('toast.bookingErrorDesc') });
      } else if (!navigator.onLine) {
        toast.error(t('toast.offlineTitle'), { description: t('toast.offline') });
      } else {
        toast.error(t('toast.bookingError'), { description: t('toast.unexpectedError') });
      }
    } finally {
      setSubmitting(false);
    }
  });

  const emailField = register('email');
  const emailHint = useEmailHint();

  const field = (name: Field, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => {
    const error = errors[name] as FieldError | undefined;
    const describedBy = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={name} className="block text-sm font-medium text-slate-800">
          {label} <span aria-hidden="true">*</span>
        </label>
        <input
          id={name}
          {...register(name)}
          {...props}
          required
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`mt-1 w-full rounded-md border px-3 py-2 ${error ? 'border-red-600' : 'border-slate-300'}`}
        />
        {hint && (
          <p id={`${name}-hint`} className="mt-1 text-xs text-slate-600">
            {hint}
          </p>
        )}
        {error?.message && (
          <p id={`${name}-error`} role="alert" className="mt-1 text-sm text-red-700">
            {t(error.message as never)}
          </p>
        )}
      </div>
    );
  };

  return (
    <section aria-labelledby="step-details-heading" className="grid gap-6 md:grid-cols-3">
      <h2 id="step-details-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold text-slate-900 md:col-span-3">
        {t('bookingForm.title')}
      </h2>
      {/* The summary comes first, so on a phone it is read before the submit button, not below it. */}
      <aside aria-labelledby="summary-heading" className="h-fit rounded-lg border border-slate-200 bg-slate-50 p-4 md:order-last">
        <h3 id="summary-heading" className="mb-3 font-semibold text-slate-900">
          {t('summary.title')}
        </h3>
        <dl className="space-y-2 text-sm">
          <div>
            <dt className="text-slate-600">{t('summary.type')}</dt>
            <dd className="font-medium text-slate-900" lang={typeName.lang}>
              {typeName.text}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('summary.date')}</dt>
            <dd className="font-medium text-slate-900">{formatLongDate(date, lang)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('summary.time')}</dt>
            <dd className="font-medium text-slate-900">{t('summary.timeWithDuration', { time, minutes: type.slot_duration_minutes })}</dd>
          </div>
          {type.price_cents !== null && (
            <div>
              <dt className="text-slate-600">{t('summary.price')}</dt>
              <dd className="font-medium text-slate-900">{formatPrice(type.price_cents, lang)}</dd>
            </div>
          )}
        </dl>
      </aside>
      <form onSubmit={submit} noValidate className="space-y-4 md:col-span-2">
        <p className="text-sm text-slate-600">{t('bookingForm.requiredNote')}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {field('first_name', t('bookingForm.firstName'), { autoComplete: 'given-name' })}
          {field('last_name', t('bookingForm.lastName'), { autoComplete: 'family-name' })}
        </div>
        {field('birth_date', t('bookingForm.birthDate'), { autoComplete: 'bday', placeholder: t('bookingForm.birthDatePlaceholder') }, t('bookingForm.birthDateHint'))}
        {field('phone', t('bookingForm.phone'), { type: 'tel', autoComplete: 'tel' })}
        {field('email', t('bookingForm.email'), {
          type: 'email',
          autoComplete: 'email',
          onBlur: (event) => {
            void emailField.onBlur(event);
            void emailHint.check(event.target.value);
          },
          onChange: (event) => {
            emailHint.clear();
            return emailField.onChange(event);
          },
        })}
        <EmailHintLine
          id="email-suggestion"
          hint={emailHint.hint}
          didYouMean={t('bookingForm.emailHint', { email: '{{email}}', interpolation: { escapeValue: false } })}
          accept={t('bookingForm.emailHintAccept')}
          onAccept={(email) => {
            setValue('email', email, { shouldValidate: true, shouldDirty: true });
            emailHint.clear();
          }}
        />
        <div>
          <div className="flex items-start gap-2">
            <input
              id="consent"
              type="checkbox"
              {...register('consent')}
              aria-required="true"
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? 'consent-error' : undefined}
              className="mt-1 h-4 w-4"
            />
            <label htmlFor="consent" className="text-sm text-slate-800">
              {t('bookingForm.consentBefore')}{' '}
              <a href={localizedPath('/datenschutz', lang)} target="_blank" rel="noopener" className="underline">
                {t('bookingForm.consentLink')}
              </a>{' '}
              {t('bookingForm.consentAfter')} <span aria-hidden="true">*</span>
            </label>
          </div>
          {errors.consent?.message && (
            <p id="consent-error" role="alert" className="mt-1 text-sm text-red-700">
              {t(errors.consent.message as never)}
            </p>
          )}
        </div>
        <p id="contact-kept" className="text-xs text-slate-600">
          {t('bookingForm.contactKept')}
        </p>
        <div className="flex items-start gap-2">
          <input
            id="reminder"
            type="checkbox"
            checked={reminder}
            onChange={(event) => changeReminder(event.target.checked)}
            aria-describedby="reminder-hint"
            className="mt-1 h-4 w-4"
          />
          <div>
            <label htmlFor="reminder" className="text-sm text-slate-800">
              {t('bookingForm.reminder')}
            </label>
            <p id="reminder-hint" className="text-xs text-slate-600">
              {t('bookingForm.reminderHint')}
            </p>
          </div>
        </div>
        {smsOffered && (
          <div className="flex items-start gap-2">
            <input
              id="sms"
              type="checkbox"
              checked={sms}
              onChange={(event) => changeSms(event.target.checked)}
              aria-describedby="sms-hint"
              className="mt-1 h-4 w-4"
            />
            <div>
              <label htmlFor="sms" className="text-sm text-slate-800">
                {t('bookingForm.sms')}
              </label>
              <p id="sms-hint" className="text-xs text-slate-600">
                {t('bookingForm.smsHint')}
              </p>
            </div>
          </div>
        )}
        <button
          type="submit"
          disabled={submitting}
          aria-busy={submitting}
          className="w-full rounded-md bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70"
        >
          {submitting ? t('bookingForm.submitting') : t('bookingForm.submit')}
        </button>
      </form>
    </section>
  );
}
