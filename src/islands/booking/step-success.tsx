import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { formatLongDate } from '../../lib/dates';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  typeName: string;
  lang: Lang;
  date: string;
  time: string;
  onNew: () => void;
}

export function StepSuccess({ headingRef, typeName, lang, date, time, onNew }: Props) {
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
      </dl>
      <p className="mt-4 text-slate-700">{t('success.text')}</p>
      <button type="button" onClick={onNew} className="mt-6 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
        {t('success.newBooking')}
      </button>
    </section>
  );
}
