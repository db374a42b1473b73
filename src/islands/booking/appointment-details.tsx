/**
 * An appointment as the patient sees it after booking, on the cancellation
 * link's page and after moving it: reference, type, long date, time and, for
 * a self-pay type, the price (and whatever rows a place adds, such as the
 * success screen's email address and reminder). One list for every place, so
 * they cannot drift apart (the price wherever the type is summarised).
 *
 * A definition list laid out as a grid ("Buchungsnummer" once overlapped
 * the reference): labels in one column and values aligned in the next where
 * the card is wide enough, each label above its value where it is not. The
 * card is the container the layout asks, not the viewport, so the same list
 * works in a narrow centred box and a full-width card.
 */
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { formatLongDate } from '../../lib/dates';
import { formatPrice } from '../../lib/price';
import type { LocalizedTypeName } from '../../lib/type-text';

export interface DetailRow {
  label: string;
  value: ReactNode;
  className?: string;
  testId?: string;
  /** The value's language where it differs from the page's (a German type name on an English page). */
  lang?: 'de';
}

interface Props {
  lang: Lang;
  reference?: string;
  typeName: LocalizedTypeName;
  date: string;
  time: string;
  priceCents?: number | null;
  /** More rows after the appointment's own. */
  extra?: DetailRow[];
  className?: string;
}

export function AppointmentDetails({ lang, reference, typeName, date, time, priceCents, extra = [], className = '' }: Props) {
  const { t } = useTranslation();
  const rows: DetailRow[] = [
    ...(reference ? [{ label: t('success.reference'), value: reference, className: 'font-mono font-semibold tracking-wider', testId: 'booking-reference' }] : []),
    { label: t('summary.type'), value: typeName.text, lang: typeName.lang },
    { label: t('summary.date'), value: formatLongDate(date, lang) },
    { label: t('summary.time'), value: t('datetime.time', { time }) },
    ...(priceCents != null ? [{ label: t('summary.price'), value: formatPrice(priceCents, lang) }] : []),
    ...extra,
  ];
  return (
    <div className={`@container ${className}`}>
      <dl className="grid grid-cols-1 gap-x-4 text-left @sm:grid-cols-[fit-content(45%)_minmax(0,1fr)] @sm:gap-y-1">
        {rows.map((row) => (
          <Fragment key={row.label}>
            <dt className="mt-2 text-sm text-slate-600 first:mt-0 @sm:mt-0 @sm:text-base">{row.label}</dt>
            <dd className={`break-words font-medium text-slate-900 ${row.className ?? ''}`} data-testid={row.testId} lang={row.lang}>
              {row.value}
            </dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
