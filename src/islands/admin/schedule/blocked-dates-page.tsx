/**
 * Blocked dates grouped by month with 'Vergangen'/'Gesperrt' badges. A date
 * range saved in one step shows as one entry (docs/decisions/020-reception.md).
 * A block over existing bookings is never saved silently
 * (docs/decisions/021-appointment-contact-and-practice-changes.md): the dialog lists them first and offers
 * to cancel them (patients are told) or to block only new bookings, then
 * says for each cancelled one whether its patient got an email. Cancelling
 * takes an optional message to the patients (the block's reason offered),
 * sent as typed in the email of each patient's language, which the list
 * names; appointments that have begun are marked and kept
 * (docs/decisions/030). Public holidays have their own section: closed by
 * default, opened or 24/31 December closed there
 * (docs/decisions/039-public-holidays.md).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns/format';
import { de } from 'date-fns/locale/de';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type * as z from '../../../lib/zod';
import { ALL_TYPES, blockedDateSchema, cancelMessageSchema } from '../../../lib/admin-schemas';
import { berlinToday } from '../../../lib/berlin-time';
import { calendarDate, formatShortDate } from '../../../lib/dates';
import { adminApi, ApiError, failureText, type BlockedDateDto, type BlockSaved, type CalledPatient } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { displayPhone } from '../../../lib/phone';
import {
  ConfirmButton,
  EditDialog,
  Field,
  FormActions,
  inputClass,
  Loading,
  PageHeader,
  primaryButton,
  RowActions,
  secondaryButton,
  TypeOptions,
  useList,
} from '../shared/ui';
import { blockEntries, groupByMonth, isPastDate, type BlockEntry } from '../shared/views';
import { MessageCheckDialog, namedDetailsOf } from '../shared/message-check';
import type { DetailKind } from '../../../lib/message-details';
import { HolidaysPanel } from './holidays-panel';

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

  async function remove(entry: BlockEntry<BlockedDateDto>) {
    try {
      if (entry.rows.length > 1) await adminApi.blocked.removeRange(entry.first.id);
      else await adminApi.blocked.remove(entry.first.id);
      toast.success(L.deleted);
      blocked.reload();
    } catch (error) {
      toast.error(L.deleteError, { description: failureText(error) });
    }
  }

  const rangeOf = (b: BlockedDateDto) => (b.start_time && b.end_time ? L.range(b.start_time, b.end_time) : L.wholeDay);
  const datesOf = (e: BlockEntry<BlockedDateDto>) =>
    e.rows.length > 1 ? L.dateRange(formatShortDate(e.first.date), formatShortDate(e.last.date), e.rows.length) : formatShortDate(e.first.date);
  const describe = (e: BlockEntry<BlockedDateDto>) => `${datesOf(e)}, ${rangeOf(e.first)} (${e.first.type_name ?? L.allTypes})`;

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
      <HolidaysPanel />
      {blocked.items === null ? (
        <Loading />
      ) : blocked.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center">{L.empty}</p>
      ) : (
        <div className="space-y-6">
          {groupByMonth(blockEntries(blocked.items)).map((group) => (
            <section key={group.month} aria-labelledby={`month-${group.month}`}>
              <h2 id={`month-${group.month}`} className="mb-2 text-lg font-semibold">
                {monthTitle(group.month)}
              </h2>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
                {group.items.map((entry) => {
                  const past = isPastDate(entry.last.date, today);
                  const b = entry.first;
                  return (
                    <li key={b.id} className="flex flex-wrap items-center gap-3 p-3">
                      <span className="min-w-28 font-medium">{datesOf(entry)}</span>
                      <span className="w-32 tabular-nums">{rangeOf(b)}</span>
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${past ? 'bg-slate-100 text-slate-700' : 'bg-red-100 text-red-800'}`}>
                        {past ? L.past : L.active}
                      </span>
                      <span className="min-w-40 flex-1">
                        <span className="block">{b.type_name ?? L.allTypes}</span>
                        <span className="block text-sm text-slate-600">{b.reason ?? L.noReason}</span>
                      </span>
                      {entry.rows.length > 1 ? (
                        <ConfirmButton
                          label={L.deleteRange}
                          accessibleLabel={L.deleteNamed(describe(entry))}
                          title={L.deleteTitle}
                          text={L.deleteRangeText(describe(entry))}
                          confirmLabel={L.confirmDelete}
                          onConfirm={() => remove(entry)}
                        />
                      ) : (
                        <RowActions name={describe(entry)} text={L} onEdit={() => setEditing(b)} onDelete={() => remove(entry)} />
                      )}
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
      <EditDialog editing={editing} setEditing={setEditing} onSaved={blocked.reload} labels={L}>
        {(entity, done, cancel) => <BlockedForm blocked={entity} types={types.items ?? []} onDone={done} onCancel={cancel} />}
      </EditDialog>
    </>
  );
}

interface Covered {
  id: string;
  reference: string;
  appointment_date: string;
  appointment_time: string;
  type_name: string;
  /** Begun or passed: the block keeps it. */
  begun?: boolean;
  /** The language of the patient's email; null: no email (phone booking), staff call. */
  language?: 'de' | 'en' | null;
  /** Whether cancelling it emails the patient; false: staff call (docs/decisions/035). */
  will_email?: boolean;
  /** How the patient hears of it: email, SMS or a call (docs/decisions/043-sms-second-channel.md). */
  channel?: 'email' | 'sms' | 'call';
  /** Who it is: name, phone (and email) for the call; null when the details are gone or unreadable. */
  patient?: CalledPatient | null;
}

/** "Müller, Hans · 0211 7654321": who to call. */
function callee(p: CalledPatient | null | undefined): string | null {
  return p ? `${p.last_name}, ${p.first_name} · ${displayPhone(p.phone)}` : null;
}

const displayPhoneOf = (phone: string | null) => (phone ? displayPhone(phone) : null);

const B = labels.booked;

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
      : {
          date: '',
          end_date: '',
          reason: '',
          appointment_type_id: ALL_TYPES,
          start_time: '',
          end_time: '',
        },
  });
  /** A save refused with 409 has-bookings: what it would cover, and the values to save with a choice. */
  const [conflict, setConflict] = useState<{
    bookings: Covered[];
    values: FormOut;
  } | null>(null);
  /** Saved with cancellations (whether each patient was told) or with begun bookings kept. */
  const [result, setResult] = useState<Pick<BlockSaved, 'cancelled' | 'kept'> | null>(null);
  const [busy, setBusy] = useState(false);
  /** The message to the patients whose appointments the block cancels: the block's reason, offered. */
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | undefined>();
  /** What the server found the message naming (409 message-names-details): staff edit it or send it anyway. */
  const [named, setNamed] = useState<DetailKind[] | null>(null);

  async function save(values: FormOut, bookings?: 'cancel' | 'keep', sendAnyway = false) {
    let note: string | undefined;
    if (bookings === 'cancel') {
      const parsed = cancelMessageSchema.safeParse({ message });
      if (!parsed.success) {
        setMessageError(labels.errors[parsed.error.issues[0]?.message ?? ''] ?? failureText(null));
        return;
      }
      note = parsed.data.message;
    }
    setBusy(true);
    try {
      const body = {
        ...values,
        ...(bookings ? { bookings } : {}),
        ...(note ? { message: note, ...(sendAnyway ? { confirm: true } : {}) } : {}),
      };
      const saved = blocked ? await adminApi.blocked.update(blocked.id, body) : await adminApi.blocked.create(body);
      const cancelled = 'cancelled' in saved ? saved.cancelled : [];
      // Begun appointments a cancelling block left in place (with "keep" every booking stays anyway).
      const kept = bookings === 'cancel' && 'kept' in saved ? (saved.kept ?? []) : [];
      // The page's own words: a day, or a range of days, is blocked.
      toast.success(blocked ? L.updated : values.end_date && values.end_date !== values.date ? L.createdRange : L.created);
      if (cancelled.length > 0 || kept.length > 0) setResult({ cancelled, kept });
      else onDone();
    } catch (error) {
      const covered = error instanceof ApiError && error.status === 409 ? (error.body?.bookings as Covered[] | undefined) : undefined;
      const messageField = error instanceof ApiError ? error.fieldErrors?.message?.[0] : undefined;
      const names = namedDetailsOf(error);
      if (names) {
        setNamed(names);
      } else if (covered) {
        // The block's reason is offered as the message, when any patient gets an email.
        setMessage(covered.some((b) => !b.begun && b.language) ? (values.reason ?? '') : '');
        setMessageError(undefined);
        setConflict({ bookings: covered, values });
      } else if (messageField && conflict) {
        setMessageError(labels.errors[messageField] ?? failureText(error));
      } else {
        if (error instanceof ApiError && error.fieldErrors) {
          for (const [field, keys] of Object.entries(error.fieldErrors)) setError(field as keyof FormIn, { message: keys[0] });
        }
        toast.error(C.saveError, { description: failureText(error) });
      }
    } finally {
      setBusy(false);
    }
  }

  if (result) {
    return (
      <div role="status" className="space-y-4">
        {result.cancelled.length > 0 && <p className="font-medium">{L.cancelledTitle(result.cancelled.length)}</p>}
        {result.cancelled.length > 0 && (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {result.cancelled.map((r) => (
              <li key={r.reference} className="flex flex-wrap justify-between gap-2 p-2 text-sm">
                <span className="font-mono tracking-wider">{r.reference}</span>
                {r.patient && <span>{`${r.patient.last_name}, ${r.patient.first_name}`}</span>}
                <span className={r.patient_notified ? 'text-slate-700' : 'font-semibold text-amber-900'}>
                  {r.patient_notified ? (r.channel === 'sms' ? L.smsQueued : L.emailQueued) : L.callNow(displayPhoneOf(r.patient?.phone ?? r.patient_phone ?? null))}
                </span>
              </li>
            ))}
          </ul>
        )}
        {result.kept.length > 0 && (
          <>
            <p className="font-medium">{L.keptTitle(result.kept.length)}</p>
            <ul aria-label={L.keptTitle(result.kept.length)} className="divide-y divide-slate-100 rounded-md border border-slate-200">
              {result.kept.map((k) => (
                <li key={k.reference} className="flex flex-wrap justify-between gap-2 p-2 text-sm">
                  <span>
                    {formatShortDate(k.appointment_date)} {k.appointment_time}, {k.type_name}
                  </span>
                  <span className="font-mono tracking-wider">{k.reference}</span>
                  <span className="font-semibold">{L.begun}</span>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="flex justify-end">
          <button type="button" className={primaryButton} onClick={onDone}>
            {L.done}
          </button>
        </div>
      </div>
    );
  }

  if (conflict) {
    const anyBegun = conflict.bookings.some((b) => b.begun);
    const anyEmail = conflict.bookings.some((b) => !b.begun && b.language);
    return (
      <div className="space-y-4">
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {L.hasBookings(conflict.bookings.length)}
          {anyBegun && <span className="mt-1 block">{L.begunKept}</span>}
        </p>
        <ul aria-label={L.coveredList} className="max-h-60 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {conflict.bookings.map((b) => (
            <li key={b.id} className="flex flex-wrap gap-x-3 gap-y-1 p-2 text-sm">
              <span>{formatShortDate(b.appointment_date)}</span>
              <span className="tabular-nums">{b.appointment_time}</span>
              <span className="flex-1">{b.type_name}</span>
              <span className="font-mono tracking-wider">{b.reference}</span>
              {callee(b.patient) && <span className="basis-full font-medium">{callee(b.patient)}</span>}
              <span className={`basis-full text-xs ${b.begun ? 'font-semibold text-slate-900' : b.channel === 'call' || (!b.channel && b.will_email === false) ? 'font-semibold text-amber-900' : 'text-slate-700'}`}>
                {b.begun ? L.begun : b.channel === 'sms' ? B.smsIn : B.emailIn(b.language ?? null)}
              </span>
            </li>
          ))}
        </ul>
        {anyEmail && (
          <div>
            <label htmlFor="block-message" className="block text-sm font-medium">
              {B.message}
            </label>
            <textarea
              id="block-message"
              rows={3}
              maxLength={500}
              className={inputClass}
              value={message}
              aria-invalid={messageError ? true : undefined}
              aria-describedby={messageError ? 'block-message-hint block-message-error' : 'block-message-hint'}
              onChange={(event) => {
                setMessage(event.target.value);
                setMessageError(undefined);
              }}
            />
            <p id="block-message-hint" className="mt-1 text-xs text-slate-600">
              {conflict.values.reason ? `${B.reasonOffered} ` : ''}
              {B.sentAsTyped} {B.messageHint} ({message.length}/500)
            </p>
            {messageError && (
              <p id="block-message-error" role="alert" className="mt-1 text-sm text-red-700">
                {messageError}
              </p>
            )}
          </div>
        )}
        <div className="flex flex-col gap-2">
          <button
            type="button"
            disabled={busy}
            className="rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            onClick={() => void save(conflict.values, 'cancel')}
          >
            {L.cancelAndBlock}
          </button>
          <button type="button" disabled={busy} className={secondaryButton} onClick={() => void save(conflict.values, 'keep')}>
            {L.keepAndBlock}
          </button>
          <button type="button" className={secondaryButton} onClick={() => setConflict(null)}>
            {L.back}
          </button>
          <MessageCheckDialog names={named} fieldId="block-message" onClose={() => setNamed(null)} onSend={() => save(conflict.values, 'cancel', true)} />
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit((values) => save(values))} noValidate className="space-y-4">
      <div className="grid grid-cols-2 gap-4">
        <Field id="blocked-date" label={blocked ? L.date : L.fromDate} required error={errors.date?.message}>
          {(a) => <input {...a} type="date" className={inputClass} {...register('date')} />}
        </Field>
        {!blocked && (
          <Field id="blocked-end-date" label={L.endDate} error={errors.end_date?.message} hint={L.endDateHint}>
            {(a) => <input {...a} type="date" className={inputClass} {...register('end_date')} />}
          </Field>
        )}
      </div>
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
      <FormActions submitting={isSubmitting || busy} onCancel={onCancel} />
    </form>
  );
}
