/**
 * Booked slots by date then time, with a type search, a date filter, three
 * counters, 'Slot freigeben' (SPEC.md §2, §8) and 'Termin eintragen' for a
 * caller (source Telefon). Only type, date, time, source and reference
 * exist to show: no patient data is stored.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { staffBookingSchema } from '../../lib/admin-schemas';
import { berlinToday } from '../../lib/berlin-time';
import { formatShortDate } from '../../lib/dates';
import { adminApi, ApiError, failureText, type AdminBookedSlotDto } from './admin-api';
import { labels } from './labels';
import { ConfirmButton, EditDialog, Field, FormActions, inputClass, ListTable, PageHeader, primaryButton, secondaryButton, TypeOptions, useList } from './ui';
import { dateFromUrl } from './day-schedule';
import { bookedCounters, filterBookedSlots } from './views';

const L = labels.booked;
const C = labels.common;

const createdAt = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

export function BookedSlotsPage() {
  const { items, reload } = useList(adminApi.booked.list, () => toast.error(C.error, { description: L.loadError }));
  const types = useList(adminApi.types.list, () => toast.error(C.loadError));
  const [adding, setAdding] = useState<'new' | null>(null);
  const [search, setSearch] = useState('');
  // The dashboard links here with ?datum= or ?filter=unnotified (upcoming bookings the practice was not told of).
  const [date, setDate] = useState(() => dateFromUrl() ?? '');
  const [onlyUnnotified, setOnlyUnnotified] = useState(() => new URLSearchParams(window.location.search).get('filter') === 'unnotified');
  const today = berlinToday();
  const shown = filterBookedSlots(items ?? [], search, date).filter((s) => !onlyUnnotified || (!s.practice_notified && s.appointment_date >= today));
  const counters = bookedCounters(shown, today);

  async function release(slot: AdminBookedSlotDto) {
    try {
      await adminApi.booked.remove(slot.id);
      toast.success(L.released);
      reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) });
    }
  }

  const describe = (s: AdminBookedSlotDto) => `${s.type_name}, ${formatShortDate(s.appointment_date)} ${s.appointment_time} Uhr`;

  return (
    <>
      <PageHeader
        title={labels.nav['booked-slots']}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setAdding('new')}>
            {L.add}
          </button>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div className="min-w-56 flex-1">
          <label htmlFor="booked-search" className="block text-sm font-medium">
            {L.search}
          </label>
          <input id="booked-search" type="search" className={inputClass} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div>
          <label htmlFor="booked-date" className="block text-sm font-medium">
            {L.date}
          </label>
          <input id="booked-date" type="date" className={inputClass} value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        {date && (
          <button type="button" className={secondaryButton} onClick={() => setDate('')}>
            {L.clearDate}
          </button>
        )}
        {onlyUnnotified && (
          <button type="button" className={secondaryButton} onClick={() => setOnlyUnnotified(false)}>
            {L.onlyUnnotified}
          </button>
        )}
      </div>
      <dl className="mb-6 grid gap-4 sm:grid-cols-3" aria-live="polite">
        {(
          [
            [L.shown, counters.shown],
            [L.today, counters.today],
            [L.days, counters.days],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-bold">{items === null ? '–' : value}</dd>
          </div>
        ))}
      </dl>
      <ListTable loaded={items !== null} total={items?.length ?? 0} shown={shown.length} text={L} columns={[L.dateColumn, L.time, L.type, L.reference, L.source, L.bookedAt, L.actions]}>
        {shown.map((s) => (
          <tr key={s.id}>
            <td className="px-3 py-2">{formatShortDate(s.appointment_date)}</td>
            <td className="px-3 py-2">{s.appointment_time}</td>
            <td className="px-3 py-2">{s.type_name}</td>
            <td className="px-3 py-2 font-mono tracking-wider">
              {s.reference}
              {!s.practice_notified && (
                <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-sans text-xs font-semibold tracking-normal text-amber-900" title={L.unnotifiedHint}>
                  {L.unnotified}
                </span>
              )}
            </td>
            <td className="px-3 py-2">{L.sources[s.source] ?? s.source}</td>
            <td className="px-3 py-2">{createdAt.format(new Date(s.created_at))}</td>
            <td className="px-3 py-2">
              <ConfirmButton
                label={L.release}
                accessibleLabel={L.releaseNamed(describe(s))}
                title={L.releaseTitle}
                text={L.releaseText(describe(s))}
                confirmLabel={L.release}
                onConfirm={() => release(s)}
              />
            </td>
          </tr>
        ))}
      </ListTable>
      <EditDialog editing={adding} setEditing={setAdding} onSaved={reload} labels={L}>
        {(_entity, done, cancel) => <StaffBookingForm types={types.items ?? []} onDone={done} onCancel={cancel} />}
      </EditDialog>
    </>
  );
}

type FormIn = z.input<typeof staffBookingSchema>;
type FormOut = z.output<typeof staffBookingSchema>;

/** 'Termin eintragen': type, date and time only; a 409 names why the time cannot be taken. */
function StaffBookingForm({ types, onDone, onCancel }: { types: Array<{ id: string; name: string }>; onDone: () => void; onCancel: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(staffBookingSchema),
    defaultValues: { appointment_type_id: types[0]?.id ?? '', appointment_date: berlinToday(), appointment_time: '' },
  });

  const onSubmit = async (values: FormOut) => {
    try {
      const booked = await adminApi.booked.create(values);
      toast.success(L.created(booked.reference));
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        for (const [field, keys] of Object.entries(error.fieldErrors)) setError(field as keyof FormIn, { message: keys[0] });
      }
      toast.error(C.saveError, { description: failureText(error) });
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="staff-booking-type" label={L.type} required error={errors.appointment_type_id?.message}>
        {(a) => (
          <select {...a} className={inputClass} {...register('appointment_type_id')}>
            <TypeOptions types={types} />
          </select>
        )}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="staff-booking-date" label={L.dateColumn} required error={errors.appointment_date?.message}>
          {(a) => <input {...a} type="date" className={inputClass} {...register('appointment_date')} />}
        </Field>
        <Field id="staff-booking-time" label={L.time} required error={errors.appointment_time?.message}>
          {(a) => <input {...a} type="time" step={300} className={inputClass} {...register('appointment_time')} />}
        </Field>
      </div>
      <FormActions submitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
