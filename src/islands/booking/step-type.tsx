import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/languages';
import { formatPrice } from '../../lib/price';
import { localizedTypeText } from '../../lib/type-text';
import type { AppointmentType } from './api';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  types: AppointmentType[] | null;
  selectedId: string | null;
  lang: Lang;
  /** The types could not be loaded because the device is offline. */
  offline?: boolean;
  onRetry?: () => void;
  onChoose: (type: AppointmentType) => void;
}

export function StepType({ headingRef, types, selectedId, lang, offline, onRetry, onChoose }: Props) {
  const { t } = useTranslation();
  const advance = (days: number) =>
    days === 0 ? t('appointmentTypes.sameDayOnly') : days === 1 ? t('appointmentTypes.oneDay') : t('appointmentTypes.daysInAdvance', { count: days });

  return (
    <section aria-labelledby="step-type-heading">
      <h2 id="step-type-heading" ref={headingRef} tabIndex={-1} className="mb-4 text-2xl font-semibold text-slate-900">
        {t('appointmentTypes.title')}
      </h2>
      {types === null ? (
        <div aria-busy="true" aria-label={t('appointmentTypes.loading')} className="grid gap-4 sm:grid-cols-2">
          {[0, 1, 2].map((i) => (
            <div key={i} data-testid="type-placeholder" className="h-40 animate-pulse rounded-lg bg-slate-100" />
          ))}
        </div>
      ) : offline ? (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-slate-800">
          <p className="font-semibold text-slate-900">{t('booking.offlineTitle')}</p>
          <p className="mt-1">{t('booking.offlineText')}</p>
          <button type="button" onClick={onRetry} className="mt-4 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
            {t('booking.retry')}
          </button>
        </div>
      ) : types.length === 0 ? (
        <p className="rounded-lg border border-slate-200 p-6 text-slate-700">{t('appointmentTypes.empty')}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2">
          {types.map((type) => {
            const selected = type.id === selectedId;
            // German text standing in for missing English is marked lang="de" (src/lib/type-text.ts).
            const { name, description, nameLang, descriptionLang } = localizedTypeText(type, lang);
            return (
              <li key={type.id} className={`flex flex-col rounded-lg border p-5 ${selected ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200'}`}>
                <h3 className="text-lg font-semibold text-slate-900" lang={nameLang}>
                  {name}
                </h3>
                <p className="mt-1 flex-1 text-slate-700" lang={descriptionLang}>
                  {description}
                </p>
                <ul className="mt-3 space-y-1 text-sm text-slate-700">
                  <li>{t('appointmentTypes.duration', { minutes: type.slot_duration_minutes })}</li>
                  <li>{advance(type.max_advance_days)}</li>
                  {type.price_cents !== null && <li>{t('appointmentTypes.price', { price: formatPrice(type.price_cents, lang) })}</li>}
                </ul>
                <button
                  type="button"
                  aria-pressed={selected}
                  aria-label={`${selected ? t('appointmentTypes.selected') : t('appointmentTypes.select')}: ${name}`}
                  onClick={() => onChoose(type)}
                  className={`mt-4 rounded-md px-4 py-2 font-semibold ${selected ? 'bg-brand-700 text-white' : 'border border-brand-700 text-brand-800 hover:bg-brand-50'}`}
                >
                  {selected ? t('appointmentTypes.selected') : t('appointmentTypes.select')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
