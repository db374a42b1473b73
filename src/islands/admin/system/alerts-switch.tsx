/**
 * "Störungsmeldungen" under "Mein Konto" (docs/decisions/045-operations.md):
 * whether this account gets the operations alerts by email too (the owner's
 * address, ALERT_EMAIL, always does). Saved as soon as it is switched.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { labels } from '../shared/labels';
import { systemLabels } from './system-labels';

const L = systemLabels.alerts;
const PATH = '/api/admin/system/alerts';

async function send(method: 'GET' | 'PUT', on?: boolean): Promise<boolean> {
  const res = await fetch(PATH, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(on === undefined ? {} : { 'content-type': 'application/json' }) },
    body: on === undefined ? undefined : JSON.stringify({ operations_alerts: on }),
  });
  if (!res.ok) throw new Error(String(res.status));
  return ((await res.json()) as { operations_alerts: boolean }).operations_alerts;
}

export function AlertsSwitch() {
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    send('GET').then(setOn, () => setOn(false));
  }, []);

  async function toggle(next: boolean) {
    // The box shows the click at once (and stays disabled while it is saved); a refusal puts it back.
    const before = on;
    setOn(next);
    setBusy(true);
    try {
      setOn(await send('PUT', next));
      toast.success(L.saved);
    } catch {
      setOn(before);
      toast.error(labels.common.error, { description: L.saveError });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="alerts-title" className="mt-6 max-w-2xl space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="alerts-title" className="text-lg font-semibold">
        {L.title}
      </h2>
      <p className="text-sm text-slate-600">{L.intro}</p>
      <label className="flex items-start gap-3 text-sm font-medium">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
          checked={on ?? false}
          disabled={on === null || busy}
          onChange={(e) => void toggle(e.target.checked)}
        />
        <span>{L.label}</span>
      </label>
    </section>
  );
}
