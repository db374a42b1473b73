/**
 * An appointment as the patient sees it after booking, on the cancellation
 * link's page and after moving it: reference, type, long date, time and, for
 * a self-pay type, the price. One list for the three places, so they cannot
 * drift apart (issue 14: the price wherever the type is summarised).
 */
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../i18n/i18n';
import { formatLongDate } from '../../lib/dates';
import { formatPrice } from '../../lib/price';

interface Props {
  lang: Lang;
  reference?: string;
  typeName: string;
  date: string;
  time: string;
  priceCents?: number | null;
  /** `centered`: the success screen's narrow, centred list; `aligned`: labels in a column, on a card. */
  layout: 'centered' | 'aligned';
}

const styles = {
  centered: { list: 'mx-auto mt-4 max-w-sm space-y-1 text-left', row: 'flex justify-between gap-4', label: 'text-slate-700', reference: 'tracking-wider' },
  aligned: { list: 'my-4 space-y-1', row: 'flex gap-4', label: 'w-28 text-slate-600', reference: '' },
} as const;

export function AppointmentDetails({ lang, reference, typeName, date, time, priceCents, layout }: Props) {
  const { t } = useTranslation();
  const s = styles[layout];
  type Row = { label: string; value: string; className: string; testId?: string };
  const rows: Row[] = [
    ...(reference ? [{ label: t('success.reference'), value: reference, className: `font-mono font-semibold ${s.reference}`.trim(), testId: 'booking-reference' }] : []),
    { label: t('summary.type'), value: typeName, className: 'font-medium' },
    { label: t('summary.date'), value: formatLongDate(date, lang), className: 'font-medium' },
    { label: t('summary.time'), value: t('datetime.time', { time }), className: 'font-medium' },
    ...(priceCents != null ? [{ label: t('summary.price'), value: formatPrice(priceCents, lang), className: 'font-medium' }] : []),
  ];
  return (
    <dl className={s.list}>
      {rows.map((row) => (
        <div key={row.label} className={s.row}>
          <dt className={s.label}>{row.label}</dt>
          <dd className={row.className} data-testid={row.testId}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
