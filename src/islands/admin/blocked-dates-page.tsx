/** Blocked dates grouped by month with 'Vergangen'/'Gesperrt' badges (SPEC.md §2, §4, §5, §8). */
import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns/format';
import { de } from 'date-fns/locale/de';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ALL_TYPES, blockedDateSchema } from '../../lib/admin-schemas';
import { berlinToday } from '../../lib/berlin-time';
import { calendarDate, formatShortDate } from '../../lib/dates';
import { adminApi, failureText, type BlockedDateDto } from './admin-api';
import { labels } from './labels';
import { EditDialog, Field, FormActions, inputClass, Loading, PageHeader, primaryButton, RowActions, saveForm, TypeOptions, useList } from './ui';
import { groupByMonth, isPastDate } from './views';

const L = labels.blocked;
const C = labels.common;
type FormIn = z.input<typeof blockedDateSchema>;
type FormOut = z.output<typeof blockedDateSchema>;

const monthTitle = (month: string) => format(calendarDate(`${month}-01`), 'MMMM yyyy', { locale: de });

export function BlockedDatesPage() {
  const onError = () => toast.error(C.loadError);
  const blocked = useList(adminApi.blocked.list, onError);
  const types = useList(adminApi.types.list, onError);
  const [editing, setEditing] = useState<BlockedDateDto | 'new' | null>(null);
  const today = berlinToday();

  async function remove(b: BlockedDateDto) {
    try {
      await adminApi.blocked.remove(b.id);
      toast.success(L.deleted);
      blocked.reload();
    } catch (error) {
      toast.error(L.deleteError, { description: failureText(error) });
    }
  }

  const rangeOf = (b: BlockedDateDto) => (b.start_time && b.end_time ? L.range(b.start_time, b.end_time) : L.wholeDay);
  const describe = (b: BlockedDateDto) => `${formatShortDate(b.date)}, ${rangeOf(b)} (${b.type_name ?? L.allTypes})`;

  return (
    <>
      <PageHeader
        title={labels.nav['blocked-dates']}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setEditing('new')}>
            {L.add}
          </button>
        }
      />
      {blocked.items === null ? (
        <Loading />
      ) : blocked.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center">{L.empty}</p>
      ) : (
        <div className="space-y-6">
          {groupByMonth(blocked.items).map((group) => (
            <section key={group.month} aria-labelledby={`month-${group.month}`}>
              <h2 id={`month-${group.month}`} className="mb-2 text-lg font-semibold">
                {monthTitle(group.month)}
              </h2>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
                {group.items.map((b) => {
                  const past = isPastDate(b.date, today);
                  return (
                    <li key={b.id} className="flex flex-wrap items-center gap-3 p-3">
                      <span className="w-28 font-medium">{formatShortDate(b.date)}</span>
                      <span className="w-32 tabular-nums">{rangeOf(b)}</span>
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${past ? 'bg-slate-100 text-slate-700' : 'bg-red-100 text-red-800'}`}
                      >
                        {past ? L.past : L.active}
                      </span>
                      <span className="min-w-40 flex-1">
                        <span className="block">{b.type_name ?? L.allTypes}</span>
                        <span className="block text-sm text-slate-600">{b.reason ?? L.noReason}</span>
                      </span>
                      <RowActions name={describe(b)} text={L} onEdit={() => setEditing(b)} onDelete={() => remove(b)} />
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
      <EditDialog editing={editing} setEditing={setEditing} onSaved={blocked.reload} labels={L}>
        {(entity, done, cancel) => (
          <BlockedForm
            blocked={entity}
            types={types.items ?? []}
            onDone={done}
            onCancel={cancel}
          />
        )}
      </EditDialog>
    </>
  );
}

function BlockedForm({
  blocked,
  types,
  onDone,
  onCancel,
}: {
  blocked: BlockedDateDto | null;
  types: Array<{ id: string; name: string }>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(blockedDateSchema),
    defaultValues: blocked
      ? {
          date: blocked.date,
          reason: blocked.reason ?? '',
          appointment_type_id: blocked.appointment_type_id ?? ALL_TYPES,
          start_time: blocked.start_time ?? '',
          end_time: blocked.end_time ?? '',
        }
      : { date: '', reason: '', appointment_type_id: ALL_TYPES, start_time: '', end_time: '' },
  });

  const onSubmit = (values: FormOut) =>
    saveForm(() => (blocked ? adminApi.blocked.update(blocked.id, values) : adminApi.blocked.create(values)), {
      success: blocked ? L.updated : L.created,
      onDone,
      setFieldError: (field, message) => setError(field as keyof FormIn, { message }),
    });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="blocked-date" label={L.date} required error={errors.date?.message}>
        {(a) => <input {...a} type="date" className={inputClass} {...register('date')} />}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="blocked-start" label={L.startTime} error={errors.start_time?.message}>
          {(a) => <input {...a} type="time" className={inputClass} {...register('start_time')} />}
        </Field>
        <Field id="blocked-end" label={L.endTime} error={errors.end_time?.message}>
          {(a) => <input {...a} type="time" className={inputClass} {...register('end_time')} />}
        </Field>
      </div>
      <Field id="blocked-type" label={L.type} error={errors.appointment_type_id?.message}>
        {(a) => (
          <select {...a} className={inputClass} {...register('appointment_type_id')}>
            <TypeOptions types={types} all={{ value: ALL_TYPES, label: L.allTypes }} />
          </select>
        )}
      </Field>
      <Field id="blocked-reason" label={L.reason} error={errors.reason?.message}>
        {(a) => <input {...a} className={inputClass} {...register('reason')} />}
      </Field>
      <FormActions submitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
