/**
 * "Absagen" (docs/decisions/021-appointment-contact-and-practice-changes.md): asks first, takes an
 * optional message to the patient (at most 500 characters, the patient text
 * rules, checked again by the server), says whether the patient gets an
 * email (online, naming its language; the message is sent as typed) or
 * must be called (phone), and after the cancellation says
 * whether the email went out, naming the reference to call with.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { cancelMessageSchema } from '../../../lib/admin-schemas';
import { adminApi, ApiError, failureText, type AdminBookedSlotDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { MessageCheckDialog, namedDetailsOf } from '../shared/message-check';
import { dangerButton, FormDialog, inputClass, secondaryButton } from '../shared/ui';
import type { DetailKind } from '../../../lib/message-details';

const L = labels.booked;
const C = labels.common;

/** Whether an email can reach the booking's patient: its details hold an address (docs/decisions/025). */
export const canEmail = (slot: AdminBookedSlotDto) => Boolean(slot.patient?.email);

/**
 * What a dialog affecting a booking says about telling its patient: the
 * email that will go, or – no address, or an earlier notice that did not
 * go out – the number to call.
 */
export function PatientNotice({ slot, emailText, phoneText }: { slot: AdminBookedSlotDto; emailText: string; phoneText: string }) {
  const phone = slot.patient?.phone;
  const call = !canEmail(slot) || !slot.patient_notified;
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="patient-notice">
      <p>{canEmail(slot) ? emailText : phoneText}</p>
      {canEmail(slot) && slot.patient && <p className="mt-1 font-medium">{L.emailInLanguage(slot.patient.language)}</p>}
      {call && phone && <p className="mt-1 font-semibold">{L.callNumber(phone)}</p>}
    </div>
  );
}

export function CancelBookingButton({ slot, describe, onDone }: { slot: AdminBookedSlotDto; describe: string; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  /** What the server found the message naming (409 message-names-details): staff edit it or send it anyway. */
  const [named, setNamed] = useState<DetailKind[] | null>(null);

  async function confirm(sendAnyway = false) {
    const parsed = cancelMessageSchema.safeParse({ message });
    if (!parsed.success) {
      setError(labels.errors[parsed.error.issues[0]?.message as keyof typeof labels.errors] ?? failureText(null));
      return;
    }
    setBusy(true);
    try {
      const result = await adminApi.booked.cancel(slot.id, parsed.data.message, sendAnyway);
      setOpen(false);
      setMessage('');
      // Without an email the staff must call: the toast names the reference, the list keeps the mark.
      if (result.patient_notified) toast.success(L.cancelled(result.reference), { description: L.cancelledNotified });
      else
        toast.warning(L.cancelled(result.reference), {
          description: result.patient_phone ? L.callNumber(result.patient_phone) : L.callPatient(result.reference),
          duration: 15_000,
        });
      onDone();
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.fieldErrors?.message?.[0] : undefined;
      const names = namedDetailsOf(failure);
      if (names) setNamed(names);
      else if (field) setError(labels.errors[field as keyof typeof labels.errors] ?? L.cancelError);
      else {
        toast.error(L.cancelError, { description: failureText(failure, { conflict: L.alreadyCancelled }) });
        // Cancelled meanwhile (a colleague, a block): close and show the list as it now is.
        if (failure instanceof ApiError && failure.type === 'conflict') {
          setOpen(false);
          onDone();
        }
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className={dangerButton} aria-label={L.cancelNamed(describe)} onClick={() => setOpen(true)}>
        {L.cancel}
      </button>
      <FormDialog open={open} onOpenChange={setOpen} title={L.cancelTitle} description={L.cancelText(describe)}>
        <PatientNotice slot={slot} emailText={L.cancelEmail} phoneText={L.cancelPhone(slot.reference)} />
        {canEmail(slot) && (
          <div className="mt-4">
            <label htmlFor="cancel-message" className="block text-sm font-medium">
              {L.message}
            </label>
            <textarea
              id="cancel-message"
              rows={4}
              maxLength={500}
              className={inputClass}
              value={message}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'cancel-message-hint cancel-message-error' : 'cancel-message-hint'}
              onChange={(event) => {
                setMessage(event.target.value);
                setError(undefined);
              }}
            />
            <p id="cancel-message-hint" className="mt-1 text-xs text-slate-600">
              {L.sentAsTyped} {L.messageHint} ({message.length}/500)
            </p>
            {error && (
              <p id="cancel-message-error" role="alert" className="mt-1 text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
        )}
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className={secondaryButton} onClick={() => setOpen(false)}>
            {C.cancel}
          </button>
          <button
            type="button"
            disabled={busy}
            className="inline-flex items-center justify-center rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            onClick={() => void confirm()}
          >
            {busy ? L.cancelling : L.confirmCancel}
          </button>
        </div>
        <MessageCheckDialog names={named} fieldId="cancel-message" onClose={() => setNamed(null)} onSend={() => confirm(true)} />
      </FormDialog>
    </>
  );
}
