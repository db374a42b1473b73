/**
 * "Termin eintragen" (DESIGN.md Reception): the type, then a date from the
 * staff calendar and one of its free start times (no free typing). A
 * refusal (someone was quicker, a block or a window changed, the time
 * passed) names its reason in German and the picker asks the server again.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { adminApi, failureText, slotReasonOf } from './admin-api';
import { labels } from './labels';
import { SlotPicker, type PickedSlot } from './slot-picker';
import { Field, FormActions, inputClass, TypeOptions } from './ui';

const L = labels.booked;
const C = labels.common;

export function StaffBookingForm({ types, onDone, onCancel }: { types: Array<{ id: string; name: string }>; onDone: () => void; onCancel: () => void }) {
  const [typeId, setTypeId] = useState(types[0]?.id ?? '');
  const [slot, setSlot] = useState<PickedSlot>({ date: null, time: null });
  const [reload, setReload] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!slot.date || !slot.time) {
      setProblem(labels.picker.pickTime);
      return;
    }
    setBusy(true);
    try {
      const booked = await adminApi.booked.create({ appointment_type_id: typeId, appointment_date: slot.date, appointment_time: slot.time });
      toast.success(L.created(booked.reference));
      onDone();
    } catch (error) {
      const reason = slotReasonOf(error);
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
          }}
        />
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {problem}
        </p>
      )}
      <FormActions submitting={busy} onCancel={onCancel} />
    </form>
  );
}
