import { useMemo, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { practice } from '../../lib/practice';
import { AppointmentDetails } from './appointment-details';
import type { AppointmentType, BookingResponse } from './api';
import { calendarFileHref, calendarFileName } from './calendar-file';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  type: AppointmentType;
  typeName: string;
  /** The server's answer; `reference` only once the API sends one. */
  booking: (BookingResponse['booking'] & { reference?: string }) | null;
  lang: Lang;
  date: string;
  time: string;
  /** The practice's notification failed: ask the patient to call. */
  practiceNotNotified?: boolean;
  onNew: () => void;
}

export function StepSuccess({ headingRef, type, typeName, booking, lang, date, time, practiceNotNotified, onNew }: Props) {
  const { t } = useTranslation();
  // The same event as the confirmation email's attachment (same UID, so a calendar
  // that gets both keeps one entry), built here so it works before the email arrives.
  const icsHref = useMemo(
    () =>
      calendarFileHref({
        bookingId: booking?.id,
        typeId: type.id,
        typeName,
        durationMinutes: type.slot_duration_minutes,
        date,
        time,
        lang,
        t,
      }),
    [booking?.id, date, time, type, typeName, lang, t],
  );
  const reference = booking?.reference;
  return (
    <section aria-labelledby="step-success-heading" className="rounded-lg border border-brand-600 bg-brand-50 p-6 text-center">
      <h2 id="step-success-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold text-brand-800">
        {t('success.title')}
      </h2>
      <AppointmentDetails lang={lang} reference={reference} typeName={typeName} date={date} time={time} priceCents={type.price_cents} layout="centered" />
      <p className="mt-4 text-slate-700">{t('success.text')}</p>
      {practiceNotNotified && (
        <p role="alert" className="mx-auto mt-4 max-w-md rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t('success.callUs', { phone: practice.phone })}
        </p>
      )}
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
    </section>
  );
}
