/**
 * Whether the patient knows of their booking's change (docs/decisions/035, 043):
 * the state of the latest email or SMS to them, and, where none reached them (no
 * address, a bounce, a final failure), "bitte anrufen" with the number and
 * a "Patient erreicht" button that clears the mark (audited on the server).
 * The button is for the screen; paper shows the mark and the number.
 * Once marked, the booking says who marked it and when, from the server's
 * row, so a reload shows the same (docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { adminApi, type AdminBookedSlotDto } from '../shared/admin-api';
import { labels } from '../shared/labels';

const L = labels.notice;
const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** "Patient erreicht – anna@praxis.example, 28.11.2026, 10:42" */
export const informedText = (mark: { by: string; at: string }) => `${L.reached} – ${mark.by}, ${stamp.format(new Date(mark.at))}`;

/**
 * The mark a booking carries about how its patient was told, or null when
 * there is nothing to say: the latest message's channel and state ("E-Mail
 * gesendet", "E-Mail zugestellt", "SMS gesendet"), or where none reached
 * the patient, the call ("SMS nicht zugestellt – bitte anrufen";
 * docs/decisions/035, 043).
 */
export function noticeText(s: Pick<AdminBookedSlotDto, 'needs_call' | 'patient_notice' | 'status'> & { patient_channel?: AdminBookedSlotDto['patient_channel'] }): string | null {
  if (s.needs_call) {
    if (s.patient_notice === 'sms_failed') return L.smsUndelivered;
    return s.patient_notice === 'bounced' || s.patient_notice === 'failed' ? L.undelivered : L.noEmail;
  }
  switch (s.patient_notice) {
    case 'pending':
      return s.patient_channel === 'sms' ? L.smsPending : L.pending;
    case 'sent':
      return L.sent;
    case 'delivered':
      return L.delivered;
    case 'sms_sent':
      return L.smsSent;
    case 'sms_failed':
      return L.smsFailed;
    default:
      return null;
  }
}

export function NoticeStatus({ slot, onReached }: { slot: AdminBookedSlotDto; onReached?: () => void }) {
  const [marked, setMarked] = useState<{ by: string; at: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const informed = marked ?? (slot.needs_call ? null : slot.informed);
  const reached = informed !== null;
  const shown = marked ? { ...slot, needs_call: false } : slot;
  const text = noticeText(shown);
  if (!text && !reached) return null;
  const markReached = async () => {
    setBusy(true);
    try {
      const result = await adminApi.booked.informed(slot.id);
      setMarked(result.informed);
      toast.success(L.reachedDone(slot.reference));
      onReached?.();
    } catch {
      toast.error(L.reachedFailed);
    } finally {
      setBusy(false);
    }
  };
  const phone = slot.patient?.phone;
  return (
    <span className="mt-1 block text-sm">
      {shown.needs_call ? (
        <>
          <span className="inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950 print:border print:border-black print:bg-transparent">
            {text}
            {phone ? (
              <>
                {': '}
                <a className="underline" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
                  {phone}
                </a>
              </>
            ) : null}
          </span>{' '}
          <button
            type="button"
            disabled={busy}
            onClick={markReached}
            aria-label={L.reachedNamed(slot.reference)}
            className="mt-1 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-50 disabled:opacity-60 print:hidden"
          >
            {L.reached}
          </button>
        </>
      ) : (
        <span className="text-slate-600">{informed ? informedText(informed) : text}</span>
      )}
    </span>
  );
}
