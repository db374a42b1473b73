/**
 * A request opened (docs/decisions/036-patient-requests.md): every field
 * with a copy button, the practice's message, and the status changes
 * (in Bearbeitung; erledigt with an optional message; abgelehnt only with
 * one). A 409 means a colleague was quicker: the list is loaded again.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { REQUEST_LIMITS } from '../../../lib/request-schema';
import { adminApi, ApiError, failureText, type StaffRequestDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { MessageCheckDialog, namedDetailsOf } from '../shared/message-check';
import { FormDialog, inputClass, dangerButton, primaryButton, secondaryButton } from '../shared/ui';
import type { DetailKind } from '../../../lib/message-details';
import { detailRows, receivedText, type DetailRow } from './request-details';
import { requestLabels as L } from './request-labels';

const C = labels.common;

/** One field with its copy button. */
function CopyRow({ row }: { row: DetailRow }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(row.copy ?? row.value);
      toast.success(L.copied(row.label));
    } catch {
      toast.error(L.copyFailed);
    }
  }
  return (
    <div className="py-2">
      <dt className="text-sm text-slate-600">{row.label}</dt>
      <dd className="flex items-start justify-between gap-3">
        <span className="min-w-0 break-words whitespace-pre-line text-slate-900">{row.value}</span>
        <button type="button" className={`${secondaryButton} shrink-0`} aria-label={L.copyNamed(row.label)} onClick={() => void copy()}>
          {L.copy}
        </button>
      </dd>
    </div>
  );
}

export function RequestDialog({ request, onClose, onChanged }: { request: StaffRequestDto | null; onClose: () => void; onChanged: (next: StaffRequestDto | null) => Promise<void> }) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** A message the server found naming the request's details: the status to send it with, and what it names. */
  const [check, setCheck] = useState<{ status: 'done' | 'declined'; names: DetailKind[] } | null>(null);
  useEffect(() => {
    setMessage('');
    setError(null);
    setCheck(null);
  }, [request?.id]);
  if (!request) return null;
  const open = request.status === 'new' || request.status === 'in_progress';

  async function change(status: 'in_progress' | 'done' | 'declined', confirm = false) {
    if (!request) return;
    if (status === 'declined' && message.trim() === '') {
      setError(L.messageRequired);
      document.getElementById('request-message')?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const changed = await adminApi.requests.change(request.id, {
        status,
        ...(status !== 'in_progress' && message.trim() ? { message, ...(confirm ? { confirm: true } : {}) } : {}),
      });
      toast.success(L.saved(L.statuses[changed.status]), status === 'in_progress' ? undefined : { description: changed.patient_notified ? L.emailed : L.notEmailed });
      await onChanged(status === 'in_progress' ? changed : null);
    } catch (failure) {
      const names = namedDetailsOf(failure);
      if (names && status !== 'in_progress') {
        // Email is not confidential: staff edit the message or send it all the same (docs/decisions/041).
        setCheck({ status, names });
      } else if (failure instanceof ApiError && failure.status === 409) {
        toast.error(C.saveError, { description: L.conflict });
        await onChanged(null);
      } else if (failure instanceof ApiError && failure.status === 400) {
        setError(L.messageRequired);
      } else {
        toast.error(C.saveError, { description: failureText(failure) });
      }
    } finally {
      setBusy(false);
    }
  }

  const rows = detailRows(request);
  return (
    <FormDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={L.dialogTitle(L.kinds[request.kind], request.reference)}
      description={L.dialogDescription(receivedText(request.received_at), L.statuses[request.status])}
    >
      {rows.length ? (
        <dl className="divide-y divide-slate-100">
          {rows.map((row) => (
            <CopyRow key={row.label} row={row} />
          ))}
        </dl>
      ) : (
        <p className="text-slate-700">{request.details_state === 'unreadable' ? L.detailsUnreadable : L.detailsDeleted}</p>
      )}
      {request.message && (
        <div className="mt-4 rounded-md bg-slate-50 p-3">
          <p className="text-sm text-slate-600">{L.field.message}</p>
          <p className="whitespace-pre-line">{request.message}</p>
        </div>
      )}
      {open ? (
        <div className="mt-6 space-y-3 border-t border-slate-200 pt-4">
          {request.status === 'new' && (
            <button type="button" className={secondaryButton} disabled={busy} onClick={() => void change('in_progress')}>
              {L.takeOn}
            </button>
          )}
          <div>
            <label htmlFor="request-message" className="block text-sm font-medium">
              {L.messageLabel}
            </label>
            <p id="request-message-hint" className="text-sm text-slate-600">
              {L.messageHint}
            </p>
            <textarea
              id="request-message"
              rows={3}
              maxLength={REQUEST_LIMITS.messageMax}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'request-message-hint request-message-error' : 'request-message-hint'}
              className={inputClass}
            />
            {error && (
              <p id="request-message-error" className="mt-1 text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" className={dangerButton} disabled={busy} onClick={() => void change('declined')}>
              {L.decline}
            </button>
            <button type="button" className={primaryButton} disabled={busy} onClick={() => void change('done')}>
              {L.done}
            </button>
          </div>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">{L.closedNote}</p>
      )}
      <MessageCheckDialog
        names={check?.names ?? null}
        fieldId="request-message"
        onClose={() => setCheck(null)}
        onSend={async () => {
          if (check) await change(check.status, true);
        }}
      />
    </FormDialog>
  );
}

