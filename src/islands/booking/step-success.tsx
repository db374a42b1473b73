import { useMemo, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { practice, telHref } from '../../lib/practice';
import { reminderStillAhead } from '../../lib/reminder-time';
import type { LocalizedTypeName } from '../../lib/type-text';
import { AppointmentDetails } from './appointment-details';
import type { AppointmentType, BookingResponse } from './api';
import { calendarFileHref, calendarFileName } from './calendar-file';
import { WaitlistLink } from '../waitlist/waitlist-link';

/** What the patient sent with the booking that the success screen repeats (kept in memory only). */
export interface BookedWith {
  /** The address the confirmation went to, so a typo is noticed. */
  email: string;
  /** The reminder box was ticked. */
  reminder: boolean;
}

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  type: AppointmentType;
  typeName: LocalizedTypeName;
  /** The server's answer; `reference` only once the API sends one. */
  booking: (BookingResponse['booking'] & { reference?: string }) | null;
  /** How the emails went; absent: none was sent. */
  emailOutcome: BookingResponse['email'] | null;
  bookedWith: BookedWith;
  lang: Lang;
  date: string;
  time: string;
  onNew: () => void;
}

export function StepSuccess({ headingRef, type, typeName, booking, emailOutcome, bookedWith, lang, date, time, onNew }: Props) {
  const { t } = useTranslation();
  // The same event as the confirmation email's attachment (same UID, so a calendar
  // that gets both keeps one entry), built here so it works before the email arrives.
  const icsHref = useMemo(
    () =>
      calendarFileHref({
        bookingId: booking?.id,
        typeId: type.id,
        typeName: typeName.text,
        durationMinutes: type.slot_duration_minutes,
        date,
        time,
        lang,
        t,
      }),
    [booking?.id, date, time, type, typeName, lang, t],
  );
  const confirmationSent = Boolean(emailOutcome && !emailOutcome.error && !emailOutcome.patientEmailError);
  const practiceNotified = Boolean(emailOutcome && !emailOutcome.error && !emailOutcome.practiceEmailError);
  // The server makes no reminder when its time (24 hours before) has already passed.
  const reminder = !bookedWith.reminder ? 'success.reminderNo' : reminderStillAhead(date, time) ? 'success.reminderYes' : 'success.reminderTooSoon';
  const phone = (
    <a href={telHref(practice.phone)} className="font-semibold whitespace-nowrap text-brand-800 underline">
      {practice.phone}
    </a>
  );
  return (
    <section aria-labelledby="step-success-heading" className="rounded-lg border border-brand-600 bg-brand-50 p-4 sm:p-6">
      <h2 id="step-success-heading" ref={headingRef} tabIndex={-1} className="text-center text-2xl font-semibold text-brand-800">
        {t('success.title')}
      </h2>
      <AppointmentDetails
        className="mx-auto mt-4 max-w-md"
        lang={lang}
        reference={booking?.reference}
        typeName={typeName}
        date={date}
        time={time}
        priceCents={type.price_cents}
        extra={[
          { label: t(confirmationSent ? 'success.sentTo' : 'success.notSentTo'), value: bookedWith.email, className: 'break-all', testId: 'confirmation-address' },
          { label: t('success.reminder'), value: t(reminder), testId: 'reminder' },
        ]}
      />
      <div className="mx-auto mt-4 max-w-md space-y-3 text-slate-700">
        {confirmationSent ? (
          <p>
            {t('success.text')} {t('success.wrongAddress')} {phone}
          </p>
        ) : (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
            {t('success.notSent')} {phone}
          </p>
        )}
        {!practiceNotified && (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
            {t('success.callUs', { phone: practice.phone })}
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <a
          href={icsHref}
          download={calendarFileName(lang)}
          className="rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50"
        >
          {t('success.addToCalendar')}
        </a>
        <button type="button" onClick={onNew} className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
          {t('success.newBooking')}
        </button>
      </div>
      {booking?.id && <WaitlistLink lang={lang} query={{ booking: booking.id, until: date }} className="mt-6 text-center" />}
    </section>
  );
}
