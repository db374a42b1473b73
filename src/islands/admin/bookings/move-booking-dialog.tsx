/**
 * "Verschieben" (docs/decisions/021-appointment-contact-and-practice-changes.md): the staff slot picker
 * for the booking's type (its own time not offered), then
 * POST /api/admin/booked-slots/:id/move. A refusal names its reason in
 * German and the picker asks the server again; afterwards staff learn
 * whether the patient got an email or must be called. An online booking's
 * patient may get a message with the new time (as "Absagen": at most 500
 * characters, sent as typed, never stored); the dialog names the email's
 * language (docs/decisions/030). A closed day (a public holiday) is moved
 * onto only after its warning (docs/decisions/039-public-holidays.md).
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { cancelMessageSchema } from '../../../lib/admin-schemas';
import { formatShortDate } from '../../../lib/dates';
import { adminApi, ApiError, failureText, holidayOf, slotReasonOf, type AdminBookedSlotDto } from '../shared/admin-api';
import { holidayLabels } from '../shared/holiday-labels';
import { HolidayWarning, type WarnedHoliday } from './holiday-warning';
import { canEmail, PatientNotice } from './cancel-booking-dialog';
import { labels } from '../shared/labels';
import { SlotPicker, type PickedSlot } from './slot-picker';
import { FormDialog, inputClass, primaryButton, secondaryButton } from '../shared/ui';
import { MessageCheckDialog, namedDetailsOf } from '../shared/message-check';
import type { DetailKind } from '../../../lib/message-details';

const L = labels.move;
const B = labels.booked;
const C = labels.common;

export function MoveBookingButton({ slot, describe, onDone }: { slot: AdminBookedSlotDto; describe: string; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={secondaryButton} aria-label={L.named(describe)} onClick={() => setOpen(true)}>
        {L.button}
      </button>
      <FormDialog open={open} onOpenChange={setOpen} title={L.title} description={L.description(describe)}>
        {open && (
          <MoveForm
            slot={slot}
            onCancel={() => setOpen(false)}
            onDone={() => {
              setOpen(false);
              onDone();
            }}
          />
        )}
      </FormDialog>
    </>
  );
}

function MoveForm({ slot, onDone, onCancel }: { slot: AdminBookedSlotDto; onDone: () => void; onCancel: () => void }) {
  const [picked, setPicked] = useState<PickedSlot>({ date: slot.appointment_date, time: null });
  const [reload, setReload] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | undefined>();
  /** What the server found the message naming (409 message-names-details): staff edit it or send it anyway. */
  const [named, setNamed] = useState<DetailKind[] | null>(null);
  const [holiday, setHoliday] = useState<WarnedHoliday | null>(null);
  /** Staff confirmed moving onto the closed day: a second answer (the message check) keeps that. */
  const [holidayConfirmed, setHolidayConfirmed] = useState(false);

  async function submit({ sendAnyway = false, confirmHoliday = holidayConfirmed }: { sendAnyway?: boolean; confirmHoliday?: boolean } = {}) {
    if (!picked.date || !picked.time) {
      setProblem(labels.picker.pickTime);
      return;
    }
    const parsed = cancelMessageSchema.safeParse({ message: canEmail(slot) ? message : '' });
    if (!parsed.success) {
      setMessageError(labels.errors[parsed.error.issues[0]?.message ?? ''] ?? failureText(null));
      return;
    }
    setBusy(true);
    try {
      const result = await adminApi.booked.move(slot.id, {
        appointment_date: picked.date,
        appointment_time: picked.time,
        ...(parsed.data.message ? { message: parsed.data.message, ...(sendAnyway ? { confirm: true } : {}) } : {}),
        ...(confirmHoliday ? { confirm_holiday: true } : {}),
      });
      const title = L.moved(slot.reference, formatShortDate(picked.date), picked.time);
      if (result.patient_notified) toast.success(title, { description: L.notified });
      else toast.warning(title, { description: result.patient_phone ? B.callNumber(result.patient_phone) : B.callPatient(slot.reference), duration: 15_000 });
      onDone();
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors?.message?.[0] : undefined;
      if (field) {
        setMessageError(labels.errors[field] ?? L.error);
        return;
      }
      const names = namedDetailsOf(error);
      if (names) {
        setNamed(names);
        return;
      }
      const reason = slotReasonOf(error);
      // A closed day: ask before moving onto it (the time stays chosen).
      const closed = holidayOf(error);
      if (closed) {
        setHoliday(closed);
        return;
      }
      const text = failureText(error, { conflict: B.alreadyCancelled });
      setProblem(text);
      toast.error(L.error, { description: text });
      // Cancelled meanwhile (a colleague, a block): nothing to move, the list shows it as it now is.
      if (error instanceof ApiError && error.type === 'conflict') onDone();
      else if (reason) {
        setPicked({ date: picked.date, time: null });
        setReload((n) => n + 1);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <PatientNotice slot={slot} emailText={L.email} phoneText={L.phone(slot.reference)} />
      <SlotPicker
        typeId={slot.appointment_type_id}
        value={picked}
        reload={reload}
        exclude={{ date: slot.appointment_date, time: slot.appointment_time }}
        onChange={(next) => {
          setPicked(next);
          setProblem(null);
          setHoliday(null);
          setHolidayConfirmed(false);
        }}
      />
      {canEmail(slot) && (
        <div>
          <label htmlFor="move-message" className="block text-sm font-medium">
            {B.message}
          </label>
          <textarea
            id="move-message"
            rows={3}
            maxLength={500}
            className={inputClass}
            value={message}
            aria-invalid={messageError ? true : undefined}
            aria-describedby={messageError ? 'move-message-hint move-message-error' : 'move-message-hint'}
            onChange={(event) => {
              setMessage(event.target.value);
              setMessageError(undefined);
            }}
          />
          <p id="move-message-hint" className="mt-1 text-xs text-slate-600">
            {B.sentAsTyped} {B.messageHint} ({message.length}/500)
          </p>
          {messageError && (
            <p id="move-message-error" role="alert" className="mt-1 text-sm text-red-700">
              {messageError}
            </p>
          )}
        </div>
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {problem}
        </p>
      )}
      {holiday && (
        <HolidayWarning
          holiday={holiday}
          confirmText={holidayLabels.confirmMove}
          busy={busy}
          onConfirm={() => {
            setHolidayConfirmed(true);
            void submit({ confirmHoliday: true });
          }}
          onOtherDay={() => {
            setHoliday(null);
            setHolidayConfirmed(false);
            setPicked({ date: null, time: null });
          }}
        />
      )}
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className={secondaryButton} onClick={onCancel}>
          {C.cancel}
        </button>
        <button type="button" className={primaryButton} disabled={busy} onClick={() => void submit()}>
          {busy ? L.moving : L.confirm}
        </button>
      </div>
      <MessageCheckDialog names={named} fieldId="move-message" onClose={() => setNamed(null)} onSend={() => submit({ sendAnyway: true })} />
    </div>
  );
}
