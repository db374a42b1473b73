/**
 * Arrival in the day list (docs/decisions/026): on the appointment's own
 * day one tap marks a booking "erschienen" or "nicht erschienen", and
 * "Rückgängig" undoes it the same day; on any other day the mark is only
 * shown. Paper gets the mark (or an empty box to tick by hand), never the
 * buttons.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import type { Attendance } from '../../../lib/admin-schemas';
import { adminApi, failureText, type AdminBookedSlotDto } from '../shared/admin-api';
import { labels } from '../shared/labels';

const L = labels.arrival;

const smallButton =
  'rounded-md border px-2.5 py-1 text-xs font-semibold focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:opacity-50';

export function attendanceText(attendance: Attendance): string {
  return attendance === 'arrived' ? L.arrived : attendance === 'no_show' ? L.noShow : L.open;
}

export function ArrivalCell({ slot, today }: { slot: AdminBookedSlotDto; today: string }) {
  const [attendance, setAttendance] = useState<Attendance>(slot.attendance);
  const [busy, setBusy] = useState(false);
  const editable = slot.appointment_date === today && slot.status === 'booked';

  async function mark(next: Attendance) {
    setBusy(true);
    try {
      const saved = await adminApi.booked.attendance(slot.id, next);
      setAttendance(saved.attendance);
      toast.success(next === null ? L.undone(slot.reference) : L.marked(slot.reference, attendanceText(next)));
    } catch (error) {
      toast.error(L.failed, { description: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  if (slot.status !== 'booked') return null;
  const shown = (
    <span
      data-attendance={attendance ?? 'open'}
      className={attendance === 'no_show' ? 'font-semibold text-red-700 print:text-black' : attendance ? 'font-semibold text-emerald-800 print:text-black' : 'text-slate-600'}
    >
      {attendance ? attendanceText(attendance) : editable ? <span aria-hidden="true" className="hidden print:inline">☐</span> : L.open}
    </span>
  );
  if (!editable) return shown;
  const describe = `${slot.appointment_time} Uhr, ${slot.type_name}, ${slot.reference}`;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {shown}
      <span className="inline-flex flex-wrap gap-1.5 print:hidden">
        {attendance === null ? (
          <>
            <button type="button" disabled={busy} className={`${smallButton} border-emerald-600 text-emerald-800 hover:bg-emerald-50`} aria-label={L.markArrived(describe)} onClick={() => void mark('arrived')}>
              {L.arrived}
            </button>
            <button type="button" disabled={busy} className={`${smallButton} border-slate-400 text-slate-800 hover:bg-slate-50`} aria-label={L.markNoShow(describe)} onClick={() => void mark('no_show')}>
              {L.noShow}
            </button>
          </>
        ) : (
          <button type="button" disabled={busy} className={`${smallButton} border-slate-400 text-slate-800 hover:bg-slate-50`} aria-label={L.undo(describe)} onClick={() => void mark(null)}>
            {L.undoShort}
          </button>
        )}
      </span>
    </span>
  );
}
