/** Consultation types: card grid, create/edit dialog, delete with confirmation. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type * as z from '../../../lib/zod';
import {
  APPOINTMENT_TYPE_DEFAULTS,
  appointmentTypeFormSchema,
  centsToEuros,
  eurosToCents,
} from '../../../lib/admin-schemas';
import { formatPrice } from '../../../lib/dates';
import { adminApi, failureText, type AdminAppointmentTypeDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { EditDialog, Field, FormActions, inputClass, Loading, PageHeader, primaryButton, RowActions, saveForm, useList } from '../shared/ui';

const L = labels.types;
const C = labels.common;
type FormIn = z.input<typeof appointmentTypeFormSchema>;
type FormOut = z.output<typeof appointmentTypeFormSchema>;

export function bookableUntil(days: number): string {
  return days === 0 ? L.sameDay : L.daysAhead(days);
}

export function AppointmentTypesPage() {
  const { items, reload } = useList(adminApi.types.list, () => toast.error(C.loadError));
  // Which types have a weekly window: one without is not shown to patients.
  const windows = useList(adminApi.windows.list, () => toast.error(C.loadError));
  const withWindows = new Set(windows.items?.map((w) => w.appointment_type_id));
  const [editing, setEditing] = useState<AdminAppointmentTypeDto | 'new' | null>(null);

  async function remove(type: AdminAppointmentTypeDto) {
    try {
      await adminApi.types.remove(type.id);
      toast.success(L.deleted);
      reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) });
    }
  }

  return (
    <>
      <PageHeader
        title={labels.nav['appointment-types']}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setEditing('new')}>
            {L.add}
          </button>
        }
      />
      {items === null ? (
        <Loading />
      ) : items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <p className="font-medium">{L.empty}</p>
          <p className="mt-1 text-sm text-slate-600">{L.emptyHint}</p>
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {items.map((type) => (
            <li key={type.id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <h2 className="text-lg font-semibold">{type.name}</h2>
              {!type.online_bookable ? (
                <p className="mt-1 self-start rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">{L.paused}</p>
              ) : (
                windows.items !== null &&
                !withWindows.has(type.id) && (
                  <p className="mt-1 self-start rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{L.noWindows}</p>
                )
              )}
              <p className="mt-1 flex-1 text-sm text-slate-700">{type.description}</p>
              <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                <dt className="text-slate-600">{L.bookableUntil}</dt>
                <dd>{bookableUntil(type.max_advance_days)}</dd>
                <dt className="text-slate-600">{L.duration}</dt>
                <dd>{L.minutes(type.slot_duration_minutes)}</dd>
                <dt className="text-slate-600">{L.maxAppointments}</dt>
                <dd>{type.max_slots_per_time}</dd>
                <dt className="text-slate-600">{L.priceLabel}</dt>
                <dd>{type.price_cents === null ? L.noPrice : formatPrice(type.price_cents, 'de')}</dd>
              </dl>
              <div className="mt-4 flex gap-2">
                <RowActions name={type.name} text={L} onEdit={() => setEditing(type)} onDelete={() => remove(type)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <EditDialog editing={editing} setEditing={setEditing} onSaved={reload} labels={L}>
        {(entity, done, cancel) => (
          <TypeForm
            type={entity}
            onDone={done}
            onCancel={cancel}
          />
        )}
      </EditDialog>
    </>
  );
}

/** Which English text a type lacks, in the warning's words; undefined when it has both. */
function englishMissing(values: { name_en: string | null; description_en: string | null }): string | undefined {
  if (!values.name_en && !values.description_en) return L.englishBoth;
  if (!values.name_en) return L.englishName;
  if (!values.description_en) return L.englishDescription;
  return undefined;
}

function TypeForm({ type, onDone, onCancel }: { type: AdminAppointmentTypeDto | null; onDone: () => void; onCancel: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(appointmentTypeFormSchema),
    defaultValues: type
      ? {
          name: type.name,
          name_en: type.name_en ?? '',
          description: type.description,
          description_en: type.description_en ?? '',
          max_advance_days: type.max_advance_days,
          slot_duration_minutes: type.slot_duration_minutes,
          max_slots_per_time: type.max_slots_per_time,
          price: centsToEuros(type.price_cents),
          online_bookable: type.online_bookable,
        }
      : { name: '', name_en: '', description: '', description_en: '', ...APPOINTMENT_TYPE_DEFAULTS, price: '' },
  });

  async function onSubmit({ price, ...values }: FormOut) {
    const body = { ...values, price_cents: eurosToCents(price) };
    const saved = await saveForm(() => (type ? adminApi.types.update(type.id, body) : adminApi.types.create(body)), {
      success: type ? L.updated : L.created,
      onDone,
      setFieldError: (field, message) => setError(field as keyof FormIn, { message }),
      // The form asks for euros; the API names the field price_cents.
      fieldOf: (field) => (field === 'price_cents' ? 'price' : field),
    });
    // Saved without English text: the English pages show the German one (marked lang="de"); say so (docs/decisions/030).
    const missing = englishMissing(values);
    if (saved && missing) toast.warning(L.englishMissing(missing), { duration: 12_000 });
  }

  const num = { valueAsNumber: true } as const;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="type-name" label={L.name} required error={errors.name?.message}>
        {(a) => <input {...a} className={inputClass} {...register('name')} />}
      </Field>
      <Field id="type-name-en" label={L.nameEn} error={errors.name_en?.message}>
        {(a) => <input {...a} className={inputClass} {...register('name_en')} />}
      </Field>
      <Field id="type-description" label={L.description} required error={errors.description?.message}>
        {(a) => <textarea {...a} rows={3} className={inputClass} {...register('description')} />}
      </Field>
      <Field id="type-description-en" label={L.descriptionEn} error={errors.description_en?.message}>
        {(a) => <textarea {...a} rows={3} className={inputClass} {...register('description_en')} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="type-advance" label={L.maxAdvanceDays} required error={errors.max_advance_days?.message}>
          {(a) => <input {...a} type="number" min={0} max={365} step={1} className={inputClass} {...register('max_advance_days', num)} />}
        </Field>
        <Field id="type-duration" label={L.slotDuration} required error={errors.slot_duration_minutes?.message}>
          {(a) => <input {...a} type="number" min={5} max={180} step={5} className={inputClass} {...register('slot_duration_minutes', num)} />}
        </Field>
        <Field id="type-max-slots" label={L.maxSlots} required error={errors.max_slots_per_time?.message}>
          {(a) => <input {...a} type="number" min={1} max={10} step={1} className={inputClass} {...register('max_slots_per_time', num)} />}
        </Field>
      </div>
      <Field id="type-price" label={L.price} error={errors.price?.message}>
        {(a) => <input {...a} inputMode="decimal" className={inputClass} {...register('price')} />}
      </Field>
      <div className="flex items-start gap-2">
        <input id="type-online" type="checkbox" aria-describedby="type-online-hint" className="mt-0.5 h-4 w-4 accent-brand-700" {...register('online_bookable')} />
        <div>
          <label htmlFor="type-online" className="text-sm font-medium">
            {L.onlineBookable}
          </label>
          <p id="type-online-hint" className="text-sm text-slate-600">
            {L.onlineBookableHint}
          </p>
        </div>
      </div>
      <FormActions submitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
