/** Weekly time windows grouped by type and weekday, Monday first. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { dayOfWeekToIsoWeekday, newTimeWindowsSchema, TIME_WINDOW_DEFAULTS, timeWindowSchema } from '../../../lib/admin-schemas';
import { adminApi, ApiError, failureText, type TimeWindowDto } from '../shared/admin-api';
import { errorText, labels } from '../shared/labels';
import { EditDialog, Field, FormActions, inputClass, Loading, PageHeader, primaryButton, RowActions, saveForm, TypeOptions, useList } from '../shared/ui';
import { WEEKDAYS_MONDAY_FIRST, groupWindows } from '../shared/views';

const L = labels.windows;
const C = labels.common;

export function TimeSlotsPage() {
  const onError = () => toast.error(C.loadError);
  const windows = useList(adminApi.windows.list, onError);
  const types = useList(adminApi.types.list, onError);
  const [editing, setEditing] = useState<TimeWindowDto | 'new' | null>(null);

  async function remove(w: TimeWindowDto) {
    try {
      await adminApi.windows.remove(w.id);
      toast.success(L.deleted);
      windows.reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) });
    }
  }

  const describe = (w: TimeWindowDto) => `${w.type_name}, ${labels.weekdays[w.day_of_week]} ${L.range(w.start_time, w.end_time)}`;
  const typeList = (types.items ?? []).map((t) => ({ id: t.id, name: t.name }));

  return (
    <>
      <PageHeader
        title={labels.nav['time-slots']}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setEditing('new')} disabled={typeList.length === 0}>
            {L.add}
          </button>
        }
      />
      {windows.items === null || types.items === null ? (
        <Loading />
      ) : typeList.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center">{L.noTypes}</p>
      ) : (
        <div className="space-y-6">
          {windows.items.length === 0 && <p className="text-slate-600">{L.empty}</p>}
          {groupWindows(windows.items, typeList).map((group) => (
            <section key={group.typeId} aria-labelledby={`type-${group.typeId}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <h2 id={`type-${group.typeId}`} className="text-lg font-semibold">
                {group.typeName}
              </h2>
              {group.days.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">{L.noWindowsForType}</p>
              ) : (
                <dl className="mt-3 divide-y divide-slate-100">
                  {group.days.map((day) => (
                    <div key={day.dayOfWeek} className="grid gap-2 py-2 sm:grid-cols-[10rem_1fr]">
                      <dt className="font-medium">{labels.weekdays[day.dayOfWeek]}</dt>
                      <dd>
                        <ul className="space-y-2">
                          {day.windows.map((w) => (
                            <li key={w.id} className="flex flex-wrap items-center gap-3">
                              <span className="min-w-32">{L.range(w.start_time, w.end_time)}</span>
                              <RowActions name={describe(w)} text={L} onEdit={() => setEditing(w)} onDelete={() => remove(w)} />
                            </li>
                          ))}
                        </ul>
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
            </section>
          ))}
        </div>
      )}
      <EditDialog editing={editing} setEditing={setEditing} onSaved={windows.reload} labels={L}>
        {(entity, done, cancel) => (
          <WindowForm
            window={entity}
            types={typeList}
            onDone={done}
            onCancel={cancel}
          />
        )}
      </EditDialog>
    </>
  );
}

interface WindowFormValues {
  appointment_type_id: string;
  /** Editing one window: its weekday. */
  day_of_week: number;
  /** A new window: every weekday it is for (ISO 1 = Monday … 7 = Sunday, as the checkboxes' values). */
  days_of_week: string[];
  start_time: string;
  end_time: string;
}

/** The window a 409 window-overlap names (docs/decisions/030). */
function overlapOf(error: unknown): Pick<TimeWindowDto, 'day_of_week' | 'start_time' | 'end_time'> | undefined {
  if (!(error instanceof ApiError) || error.type !== 'window-overlap') return undefined;
  const overlap = error.body?.overlap as TimeWindowDto | undefined;
  return overlap && typeof overlap.day_of_week === 'number' ? overlap : undefined;
}

/** The API's body for the form: several weekdays for a new window (days_of_week), one for an edit. */
function toBody(values: WindowFormValues, isNew: boolean) {
  const { appointment_type_id, start_time, end_time } = values;
  return isNew
    ? { appointment_type_id, days_of_week: values.days_of_week.map(Number), start_time, end_time }
    : { appointment_type_id, day_of_week: values.day_of_week, start_time, end_time };
}

/** Checks the body with the schema the server uses; its field errors land on the form's fields of the same names. */
const resolverFor =
  (isNew: boolean): Resolver<WindowFormValues> =>
  async (values, context, options) => {
    const schema = isNew ? newTimeWindowsSchema : timeWindowSchema;
    const result = await zodResolver(schema)(toBody(values, isNew) as never, context, options as never);
    return Object.keys(result.errors).length > 0 ? { values: {}, errors: result.errors } : { values, errors: {} };
  };

function WindowForm({
  window: w,
  types,
  onDone,
  onCancel,
}: {
  window: TimeWindowDto | null;
  types: Array<{ id: string; name: string }>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const isNew = w === null;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<WindowFormValues>({
    resolver: resolverFor(isNew),
    defaultValues: w
      ? { appointment_type_id: w.appointment_type_id, day_of_week: w.day_of_week, days_of_week: [], start_time: w.start_time, end_time: w.end_time }
      : {
          appointment_type_id: types[0]?.id ?? '',
          day_of_week: TIME_WINDOW_DEFAULTS.day_of_week,
          days_of_week: [String(dayOfWeekToIsoWeekday(TIME_WINDOW_DEFAULTS.day_of_week))],
          start_time: TIME_WINDOW_DEFAULTS.start_time,
          end_time: TIME_WINDOW_DEFAULTS.end_time,
        },
  });

  const onSubmit = (values: WindowFormValues) => {
    const body = toBody(values, isNew);
    const several = isNew && values.days_of_week.length > 1;
    return saveForm(() => (w ? adminApi.windows.update(w.id, body) : adminApi.windows.create(body)), {
      success: w ? L.updated : several ? L.createdMany(values.days_of_week.length) : L.created,
      onDone,
      setFieldError: (field, message) => setError(field as keyof WindowFormValues, { message }),
      // 409 window-overlap names the window it meets; the start field keeps the sentence until the times change.
      explain: (error) => {
        const overlap = overlapOf(error);
        if (!overlap) return undefined;
        const text = L.overlaps(labels.weekdays[overlap.day_of_week] ?? '', L.range(overlap.start_time, overlap.end_time));
        setError('start_time', { message: text });
        return text;
      },
    });
  };

  const daysError = errors.days_of_week?.message ?? (errors.days_of_week as { root?: { message?: string } } | undefined)?.root?.message;
  return (
    <form
      onSubmit={handleSubmit(onSubmit, (invalid) => {
        // Start after end is announced as a toast too.
        if (invalid.end_time?.message === 'admin.errors.startBeforeEnd') toast.error(L.invalidTimes, { description: L.invalidTimesText });
      })}
      noValidate
      className="space-y-4"
    >
      <Field id="window-type" label={L.type} required error={errors.appointment_type_id?.message}>
        {(a) => (
          <select {...a} className={inputClass} {...register('appointment_type_id')}>
            <TypeOptions types={types} />
          </select>
        )}
      </Field>
      {isNew ? (
        // Several weekdays in one step: one window each (docs/decisions/020-reception.md).
        <fieldset aria-describedby={daysError ? 'window-days-error' : undefined}>
          <legend className="block text-sm font-medium">
            {L.weekdays}
            <span aria-hidden="true" className="text-red-700">
              {' '}
              *
            </span>
          </legend>
          <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {WEEKDAYS_MONDAY_FIRST.map((d) => (
              <label key={d} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={dayOfWeekToIsoWeekday(d)} className="h-4 w-4 accent-brand-700" {...register('days_of_week')} />
                {labels.weekdays[d]}
              </label>
            ))}
          </div>
          {daysError && (
            <p id="window-days-error" className="mt-1 text-sm text-red-700">
              {errorText(daysError)}
            </p>
          )}
        </fieldset>
      ) : (
        <Field id="window-weekday" label={L.weekday} required error={errors.day_of_week?.message}>
          {(a) => (
            <select {...a} className={inputClass} {...register('day_of_week', { valueAsNumber: true })}>
              {WEEKDAYS_MONDAY_FIRST.map((d) => (
                <option key={d} value={d}>
                  {labels.weekdays[d]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="window-start" label={L.start} required error={errors.start_time?.message}>
          {(a) => <input {...a} type="time" step={300} className={inputClass} {...register('start_time')} />}
        </Field>
        <Field id="window-end" label={L.end} required error={errors.end_time?.message}>
          {(a) => <input {...a} type="time" step={300} className={inputClass} {...register('end_time')} />}
        </Field>
      </div>
      <FormActions submitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
