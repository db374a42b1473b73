import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { formatLongDate } from '../../lib/dates';
import { practice } from '../../lib/practice';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  typeName: string;
  lang: Lang;
  date: string;
  time: string;
  /** The booking's short reference (API.md: booking.reference). */
  reference?: string;
  /** The practice's notification failed: ask the patient to call. */
  practiceNotNotified?: boolean;
  onNew: () => void;
}

export function StepSuccess({ headingRef, typeName, lang, date, time, reference, practiceNotNotified, onNew }: Props) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="step-success-heading" className="rounded-lg border border-brand-600 bg-brand-50 p-6 text-center">
      <h2 id="step-success-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold text-brand-800">
        {t('success.title')}
      </h2>
      <dl className="mx-auto mt-4 max-w-sm space-y-1 text-left">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('summary.type')}</dt>
          <dd className="font-medium">{typeName}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('summary.date')}</dt>
          <dd className="font-medium">{formatLongDate(date, lang)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('summary.time')}</dt>
          <dd className="font-medium">{t('datetime.time', { time })}</dd>
        </div>
        {reference && (
          <div className="flex justify-between gap-4">
            <dt className="text-slate-700">{t('success.reference')}</dt>
            <dd className="font-mono font-semibold tracking-wider" data-testid="booking-reference">
              {reference}
            </dd>
          </div>
        )}
      </dl>
      <p className="mt-4 text-slate-700">{t('success.text')}</p>
      {practiceNotNotified && (
        <p role="alert" className="mx-auto mt-4 max-w-md rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t('success.callUs', { phone: practice.phone })}
        </p>
      )}
      <button type="button" onClick={onNew} className="mt-6 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
        {t('success.newBooking')}
      </button>
    </section>
  );
}
