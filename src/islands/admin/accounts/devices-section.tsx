/**
 * "Angemeldete Geräte" (docs/decisions/037-passkeys-sessions-guessing.md):
 * the sessions of an account, each with browser and system, when it began
 * and when it was last used, the current one marked, with "Abmelden" per
 * session. On "Mein Konto" also "Alle anderen abmelden"; the users page
 * shows a colleague's in a dialog (colleague-devices.tsx) with the same
 * list. Each session may carry a name its owner gives it, and every
 * ending asks first (docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { adminApi, failureText, type DeviceSessionDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { SESSION_NAME_MAX } from '../../../lib/account-schemas';
import { ConfirmButton, FormActions, FormDialog, inputClass, Loading, secondaryButton } from '../shared/ui';

const L = labels.devices;
const C = labels.common;
const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

/** How a session is named: its given name, else browser and system. */
export const deviceName = (s: DeviceSessionDto) => s.name ?? L.device(s.browser, s.system);

/**
 * The list: one entry per session, its name (if given) above browser and
 * system, when it began and was last used, this device marked; "Abmelden"
 * asks first (an alert dialog). `onRename`: the owner's own list names its
 * sessions (docs/decisions/041-staff-messages-devices-printouts.md).
 */
export function DeviceList({
  sessions,
  onEnd,
  onRename,
}: {
  sessions: DeviceSessionDto[];
  onEnd: (session: DeviceSessionDto) => Promise<void>;
  onRename?: (session: DeviceSessionDto, name: string) => Promise<boolean>;
}) {
  if (sessions.length === 0) return <p className="text-sm">{L.none}</p>;
  return (
    <ul aria-label={L.listLabel} className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {sessions.map((s) => {
        const name = s.current ? `${deviceName(s)} (${L.current})` : deviceName(s);
        return (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
            <div className="min-w-0">
              <p className="break-words font-medium">
                {deviceName(s)}{' '}
                {s.current && <span className="ml-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">{L.current}</span>}
              </p>
              {s.name && <p className="break-words text-sm text-slate-700">{L.device(s.browser, s.system)}</p>}
              <p className="text-xs text-slate-600">
                {L.since(when.format(new Date(s.created_at)))} · {L.lastUsed(when.format(new Date(s.last_used_at)))}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              {onRename && <RenameButton session={s} accessibleName={name} onRename={onRename} />}
              <ConfirmButton
                label={L.end}
                accessibleLabel={L.endNamed(name)}
                title={L.endTitle}
                text={s.current ? L.endOwnText : L.endText(deviceName(s))}
                confirmLabel={L.end}
                className={secondaryButton}
                onConfirm={() => onEnd(s)}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** "Benennen": a name for one of the own sessions, in a small dialog. */
function RenameButton({ session, accessibleName, onRename }: { session: DeviceSessionDto; accessibleName: string; onRename: (session: DeviceSessionDto, name: string) => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(session.name ?? '');
  const [busy, setBusy] = useState(false);
  const id = `session-name-${session.id}`;
  return (
    <>
      <button
        type="button"
        className={secondaryButton}
        aria-label={L.renameNamed(accessibleName)}
        onClick={() => {
          setValue(session.name ?? '');
          setOpen(true);
        }}
      >
        {L.rename}
      </button>
      <FormDialog open={open} onOpenChange={setOpen} title={L.renameTitle} description={L.renameText}>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            try {
              if (await onRename(session, value)) setOpen(false);
            } finally {
              setBusy(false);
            }
          }}
        >
          <label htmlFor={id} className="block text-sm font-medium">
            {L.nameLabel}
          </label>
          <input id={id} className={inputClass} maxLength={SESSION_NAME_MAX} value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" />
          <FormActions submitting={busy} onCancel={() => setOpen(false)} />
        </form>
      </FormDialog>
    </>
  );
}

/** "Mein Konto": the own sessions. */
export function DevicesSection() {
  const [sessions, setSessions] = useState<DeviceSessionDto[] | null>(null);

  async function load() {
    try {
      setSessions(await adminApi.sessions.list());
    } catch {
      toast.error(C.error, { description: L.loadError });
    }
  }
  useEffect(() => {
    void load();
  }, []);

  async function end(session: DeviceSessionDto) {
    try {
      await adminApi.sessions.end(session.id);
      // Ending this device's own session is signing out.
      if (session.current) {
        window.location.assign('/auth');
        return;
      }
      toast.success(L.ended);
      await load();
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }

  async function rename(session: DeviceSessionDto, name: string): Promise<boolean> {
    try {
      await adminApi.sessions.rename(session.id, name);
      toast.success(L.renamed);
      await load();
      return true;
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
      return false;
    }
  }

  async function endOthers() {
    try {
      await adminApi.sessions.endOthers();
      toast.success(L.othersEnded);
      await load();
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }

  return (
    <section aria-labelledby="devices-title" className="mt-6 max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="devices-title" className="text-lg font-semibold">
        {L.title}
      </h2>
      <p className="text-sm text-slate-700">{L.explain}</p>
      {sessions === null ? <Loading /> : <DeviceList sessions={sessions} onEnd={end} onRename={rename} />}
      {sessions && sessions.some((s) => !s.current) && (
        <ConfirmButton label={L.endOthers} title={L.endOthersTitle} text={L.endOthersText} confirmLabel={L.endOthers} className={secondaryButton} onConfirm={endOthers} />
      )}
    </section>
  );
}
