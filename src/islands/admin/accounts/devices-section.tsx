/**
 * "Angemeldete Geräte" (docs/decisions/037-passkeys-sessions-guessing.md):
 * the sessions of an account, each with browser and system, when it began
 * and when it was last used, the current one marked, with "Abmelden" per
 * session. On "Mein Konto" also "Alle anderen abmelden"; the users page
 * shows a colleague's in a dialog (colleague-devices.tsx) with the same
 * list.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { adminApi, failureText, type DeviceSessionDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { Loading, secondaryButton } from '../shared/ui';

const L = labels.devices;
const C = labels.common;
const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

export const deviceName = (s: DeviceSessionDto) => L.device(s.browser, s.system);

/** The list: one entry per session, "Abmelden" on each. */
export function DeviceList({ sessions, onEnd }: { sessions: DeviceSessionDto[]; onEnd: (session: DeviceSessionDto) => Promise<void> }) {
  const [busy, setBusy] = useState<string | null>(null);
  if (sessions.length === 0) return <p className="text-sm">{L.none}</p>;
  return (
    <ul aria-label={L.listLabel} className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {sessions.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
          <div className="min-w-0">
            <p className="break-words font-medium">
              {deviceName(s)}{' '}
              {s.current && <span className="ml-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">{L.current}</span>}
            </p>
            <p className="text-xs text-slate-600">
              {L.since(when.format(new Date(s.created_at)))} · {L.lastUsed(when.format(new Date(s.last_used_at)))}
            </p>
          </div>
          <button
            type="button"
            className={secondaryButton}
            aria-label={L.endNamed(s.current ? `${deviceName(s)} (${L.current})` : deviceName(s))}
            disabled={busy === s.id}
            onClick={async () => {
              setBusy(s.id);
              try {
                await onEnd(s);
              } finally {
                setBusy(null);
              }
            }}
          >
            {L.end}
          </button>
        </li>
      ))}
    </ul>
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
      {sessions === null ? <Loading /> : <DeviceList sessions={sessions} onEnd={end} />}
      {sessions && sessions.some((s) => !s.current) && (
        <button type="button" className={secondaryButton} onClick={() => void endOthers()}>
          {L.endOthers}
        </button>
      )}
    </section>
  );
}
