/**
 * "Termin eintragen" (docs/decisions/020-reception.md): the type, then a date from the
 * staff calendar and one of its free start times (no free typing), then
 * the caller: first and last name and phone (required), birth date and
 * email (optional), the emails' language (docs/decisions/025), and
 * whether SMS to the number are allowed (docs/decisions/043). The form
 * says what is kept, who sees it and until when. A refusal (someone was
 * quicker, a block or a window changed, the time passed) names its reason
 * in German and the picker asks the server again; a field the server
 * refuses is marked at the field. A closed day (a public holiday) is
 * booked only after its warning (docs/decisions/039-public-holidays.md).
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { staffBookingSchema } from '../../../lib/staff-booking-schema';
import * as z from '../../../lib/zod';
import { adminApi, ApiError, failureText, holidayOf, slotReasonOf } from '../shared/admin-api';
import { holidayLabels } from '../shared/holiday-labels';
import { HolidayWarning, type WarnedHoliday } from './holiday-warning';
import { labels } from '../shared/labels';
import { SlotPicker, type PickedSlot } from './slot-picker';
import { Field, FormActions, inputClass, TypeOptions } from '../shared/ui';

const L = labels.booked;
const C = labels.common;

type DetailField = 'first_name' | 'last_name' | 'phone' | 'birth_date' | 'email';
const DETAILS: Array<{ field: DetailField; label: string; type: string; required?: boolean; hint?: string; autoComplete: string }> = [
  { field: 'first_name', label: L.firstName, type: 'text', required: true, autoComplete: 'off' },
  { field: 'last_name', label: L.lastName, type: 'text', required: true, autoComplete: 'off' },
  { field: 'phone', label: L.phone, type: 'tel', required: true, autoComplete: 'off' },
  { field: 'birth_date', label: L.birthDate, type: 'text', hint: L.birthDateHint, autoComplete: 'off' },
  { field: 'email', label: L.email, type: 'email', hint: L.emailHint, autoComplete: 'off' },
];
const detailsSchema = z.pick(staffBookingSchema, { first_name: true, last_name: true, phone: true, birth_date: true, email: true, language: true });

export function StaffBookingForm({ types, onDone, onCancel }: { types: Array<{ id: string; name: string }>; onDone: () => void; onCancel: () => void }) {
  const [typeId, setTypeId] = useState(types[0]?.id ?? '');
  const [slot, setSlot] = useState<PickedSlot>({ date: null, time: null });
  const [reload, setReload] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [details, setDetails] = useState<Record<DetailField, string>>({ first_name: '', last_name: '', phone: '', birth_date: '', email: '' });
  const [language, setLanguage] = useState<'de' | 'en'>('de');
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  // "SMS an diese Nummer erlaubt": offered only where the practice sends SMS (docs/decisions/043-sms-second-channel.md).
  const [sms, setSms] = useState(false);
  const [smsOffered, setSmsOffered] = useState(false);
  useEffect(() => {
    let live = true;
    adminApi
      .sms()
      .then((status) => live && setSmsOffered(status.configured))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const [holiday, setHoliday] = useState<WarnedHoliday | null>(null);

  async function submit(event: React.SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(false);
  }

  async function save(confirmHoliday: boolean) {
    const checked = detailsSchema.safeParse({ ...details, language });
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      document.getElementById(`staff-booking-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    if (!slot.date || !slot.time) {
      setProblem(labels.picker.pickTime);
      return;
    }
    setBusy(true);
    try {
      const booked = await adminApi.booked.create({
        appointment_type_id: typeId,
        appointment_date: slot.date,
        appointment_time: slot.time,
        first_name: details.first_name,
        last_name: details.last_name,
        phone: details.phone,
        ...(details.birth_date.trim() ? { birth_date: details.birth_date } : {}),
        ...(details.email.trim() ? { email: details.email } : {}),
        language,
        ...(smsOffered && sms ? { sms: true } : {}),
        ...(confirmHoliday ? { confirm_holiday: true } : {}),
      });
      const phone = booked.patient?.phone ?? details.phone;
      if (!booked.patient?.email && booked.patient_channel === 'sms') toast.success(L.created(booked.reference), { description: L.createdSms });
      else if (!booked.patient?.email) toast.success(L.created(booked.reference), { description: L.createdNoEmail(phone) });
      else if (booked.patient_notified) toast.success(L.created(booked.reference), { description: L.createdEmailed });
      else toast.warning(L.created(booked.reference), { description: L.createdEmailFailed(phone), duration: 15_000 });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) {
        const found: Record<string, string> = {};
        for (const [field, keys] of Object.entries(error.fieldErrors)) if (keys[0]) found[field] = keys[0];
        setErrors(found);
      }
      const reason = slotReasonOf(error);
      // A closed day: ask before booking it (the time stays chosen).
      const closed = holidayOf(error);
      if (closed) {
        setHoliday(closed);
        return;
      }
      const text = failureText(error);
      setProblem(text);
      toast.error(C.saveError, { description: text });
      if (reason) {
        setSlot({ date: slot.date, time: null });
        setReload((n) => n + 1);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field id="staff-booking-type" label={L.type} required>
        {(a) => (
          <select
            {...a}
            className={inputClass}
            value={typeId}
            onChange={(event) => {
              setTypeId(event.target.value);
              setSlot({ date: null, time: null });
              setProblem(null);
              setHoliday(null);
            }}
          >
            <TypeOptions types={types} />
          </select>
        )}
      </Field>
      {typeId && (
        <SlotPicker
          typeId={typeId}
          value={slot}
          reload={reload}
          onChange={(next) => {
            setSlot(next);
            setProblem(null);
            setHoliday(null);
          }}
        />
      )}
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">{L.patient}</legend>
        <p className="text-xs text-slate-600">{L.privacy}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {DETAILS.map((d) => (
            <Field key={d.field} id={`staff-booking-${d.field}`} label={d.label} required={d.required} hint={d.hint} error={errors[d.field]}>
              {(a) => (
                <input
                  {...a}
                  type={d.type}
                  autoComplete={d.autoComplete}
                  className={inputClass}
                  value={details[d.field]}
                  onChange={(event) => {
                    const value = event.target.value;
                    setDetails((current) => ({ ...current, [d.field]: value }));
                    setErrors((current) => ({ ...current, [d.field]: undefined }));
                  }}
                />
              )}
            </Field>
          ))}
          {smsOffered && (
            <div className="flex items-start gap-2 sm:col-span-2">
              <input
                id="staff-booking-sms"
                type="checkbox"
                checked={sms}
                onChange={(event) => {
                  setSms(event.target.checked);
                  setErrors((current) => ({ ...current, phone: undefined }));
                }}
                aria-describedby="staff-booking-sms-hint"
                className="mt-1 h-4 w-4"
              />
              <div>
                <label htmlFor="staff-booking-sms" className="text-sm font-medium">
                  {L.sms}
                </label>
                <p id="staff-booking-sms-hint" className="text-xs text-slate-600">
                  {L.smsHint}
                </p>
              </div>
            </div>
          )}
          <Field id="staff-booking-language" label={L.language} error={errors.language}>
            {(a) => (
              <select {...a} className={inputClass} value={language} onChange={(event) => setLanguage(event.target.value === 'en' ? 'en' : 'de')}>
                <option value="de">{L.languages.de}</option>
                <option value="en">{L.languages.en}</option>
              </select>
            )}
          </Field>
        </div>
      </fieldset>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {problem}
        </p>
      )}
      {holiday && (
        <HolidayWarning
          holiday={holiday}
          confirmText={holidayLabels.confirmBook}
          busy={busy}
          onConfirm={() => void save(true)}
          onOtherDay={() => {
            setHoliday(null);
            setSlot({ date: null, time: null });
          }}
        />
      )}
      <FormActions submitting={busy} onCancel={onCancel} />
    </form>
  );
}
