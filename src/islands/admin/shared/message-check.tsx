/**
 * A staff message that names what email should not carry
 * (docs/decisions/041-staff-messages-devices-printouts.md): the server
 * answers 409 `message-names-details` with the kinds it found (never the
 * words); this alert dialog says why (email is not confidential) and lets
 * staff edit the message or send it anyway (`confirm: true`).
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState } from 'react';
import type { DetailKind } from '../../../lib/message-details';
import { ApiError } from './admin-api';
import { primaryButton, secondaryButton } from './ui';

/** What each kind is called in the dialog's sentence. */
const KIND_TEXT: Record<DetailKind, string> = {
  medication: 'ein Medikament der Anfrage',
  reason: 'den Grund der Anfrage',
  specialty: 'die Fachrichtung der Anfrage',
  topic: 'das Anliegen der Anfrage',
  type: 'die Terminart',
};

export const messageCheckLabels = {
  title: 'Nachricht nennt Einzelheiten',
  names: (kinds: DetailKind[]) => {
    const parts = kinds.map((k) => KIND_TEXT[k]);
    const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} und ${parts.at(-1)}` : (parts[0] ?? 'Einzelheiten');
    return `Die Nachricht nennt ${list}.`;
  },
  why: 'E-Mail ist nicht vertraulich: Eine Nachricht an Patientinnen und Patienten sollte keine Medikamente, Diagnosen oder Beschwerden nennen.',
  edit: 'Nachricht bearbeiten',
  send: 'Trotzdem senden',
};

/** The kinds of a 409 `message-names-details`, or null for any other outcome. */
export function namedDetailsOf(error: unknown): DetailKind[] | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.type !== 'message-names-details') return null;
  const names = error.body?.names;
  return Array.isArray(names) ? (names.filter((n): n is DetailKind => typeof n === 'string') as DetailKind[]) : [];
}

/**
 * The question, open while `names` is set. "Nachricht bearbeiten" closes it
 * and puts the focus in the message field (`fieldId`); "Trotzdem senden"
 * runs `onSend` (the same call with `confirm: true`).
 */
export function MessageCheckDialog({ names, fieldId, onSend, onClose }: { names: DetailKind[] | null; fieldId: string; onSend: () => Promise<void> | void; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const L = messageCheckLabels;
  return (
    <AlertDialog.Root open={names !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-black/40" />
        <AlertDialog.Content
          className="fixed left-1/2 top-1/2 z-[70] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            document.getElementById(fieldId)?.focus();
          }}
        >
          <AlertDialog.Title className="text-lg font-semibold">{L.title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">
              <p>{L.names(names ?? [])}</p>
              <p>{L.why}</p>
            </div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className={secondaryButton}>{L.edit}</AlertDialog.Cancel>
            <button
              type="button"
              className={primaryButton}
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onSend();
                } finally {
                  setBusy(false);
                  onClose();
                }
              }}
            >
              {L.send}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
