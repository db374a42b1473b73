/**
 * "Einstellungen für Online-Anfragen" (docs/decisions/036-patient-requests.md):
 * which kinds the public form takes and the notice above it in German and
 * English (PUT /api/admin/settings `requests`, audited on the server).
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { REQUEST_KINDS, REQUEST_LIMITS } from '../../../lib/request-schema';
import { adminApi, failureText, type RequestSettings } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { inputClass, primaryButton } from '../shared/ui';
import { requestLabels as L } from './request-labels';

const C = labels.common;

/** The kinds the public form offers and its notices (PUT /api/admin/settings `requests`). */
export function RequestSettingsPanel() {
  const [settings, setSettings] = useState<RequestSettings | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    adminApi.settings
      .get()
      .then((s) => setSettings(s.requests))
      .catch(() => setSettings(null));
  }, []);
  if (!settings) return null;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!settings) return;
    setBusy(true);
    try {
      const saved = await adminApi.settings.update({ requests: { ...settings, notice_de: settings.notice_de || null, notice_en: settings.notice_en || null } });
      setSettings(saved.requests);
      toast.success(L.settings.saved);
    } catch (error) {
      toast.error(C.saveError, { description: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <summary className="cursor-pointer font-semibold">{L.settings.title}</summary>
      <form className="mt-3 space-y-4" onSubmit={(e) => void save(e)}>
        <p className="text-sm text-slate-600">{L.settings.intro}</p>
        <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
          <legend className="sr-only">{L.filterKind}</legend>
          {REQUEST_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-2">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" checked={settings[kind]} onChange={(e) => setSettings({ ...settings, [kind]: e.target.checked })} />
              {L.kinds[kind]}
            </label>
          ))}
        </fieldset>
        {(['notice_de', 'notice_en'] as const).map((field) => (
          <div key={field}>
            <label htmlFor={`requests-${field}`} className="block text-sm font-medium">
              {field === 'notice_de' ? L.settings.notice : L.settings.noticeEn}
            </label>
            <input
              id={`requests-${field}`}
              className={inputClass}
              maxLength={REQUEST_LIMITS.noticeMax}
              value={settings[field] ?? ''}
              aria-describedby="requests-notice-hint"
              onChange={(e) => setSettings({ ...settings, [field]: e.target.value })}
            />
          </div>
        ))}
        <p id="requests-notice-hint" className="text-sm text-slate-600">
          {L.settings.noticeHint}
        </p>
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? C.saving : L.settings.save}
        </button>
      </form>
    </details>
  );
}

