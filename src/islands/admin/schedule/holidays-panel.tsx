/**
 * "Feiertage" on the blocked-dates page (docs/decisions/039-public-holidays.md):
 * NRW's public holidays of the next twelve months, each closed for online
 * booking unless the practice opens it (an emergency service), and the two
 * switches closing 24 and 31 December. Each change saves at once
 * (PUT /api/admin/settings `holidays`, audited on the server); the list
 * comes from the server (GET /api/admin/holidays), never computed here.
 */
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { formatShortDate } from '../../../lib/dates';
import { adminApi, failureText, type HolidayDto, type HolidaySettingsDto } from '../shared/admin-api';
import { holidayLabels } from '../shared/holiday-labels';
import { labels } from '../shared/labels';

const H = holidayLabels.settings;
const weekday = new Intl.DateTimeFormat('de-DE', { timeZone: 'UTC', weekday: 'short' });

export function HolidaysPanel() {
  const today = berlinToday();
  const [settings, setSettings] = useState<HolidaySettingsDto | null>(null);
  const [holidays, setHolidays] = useState<HolidayDto[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      const [saved, list] = await Promise.all([adminApi.settings.get(), adminApi.holidays(today, addDaysToDate(today, 365))]);
      setSettings(saved.holidays);
      // Only the public holidays: 24/31 December have their own switches.
      setHolidays(list.filter((h) => h.statutory));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [today]);

  useEffect(() => {
    void load();
  }, [load]);

  async function save(change: Partial<HolidaySettingsDto>) {
    setBusy(true);
    try {
      const saved = await adminApi.settings.update({ holidays: change });
      setSettings(saved.holidays);
      const list = await adminApi.holidays(today, addDaysToDate(today, 365));
      setHolidays(list.filter((h) => h.statutory));
      toast.success(H.saved);
    } catch (error) {
      toast.error(labels.common.saveError, { description: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  const toggleOpened = (date: string, open: boolean) => {
    if (!settings) return;
    const opened = open ? [...settings.opened, date] : settings.opened.filter((d) => d !== date);
    void save({ opened });
  };

  return (
    // Folded like the request settings: the page's own work is the list of blocks beneath.
    <details className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <summary className="cursor-pointer font-semibold">{H.summary}</summary>
      <p className="mt-2 text-sm text-slate-700">{H.intro}</p>
      {failed && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {H.loadError}
        </p>
      )}
      {settings && (
        <fieldset className="mt-3 space-y-2">
          <legend className="sr-only">{H.title}</legend>
          {(
            [
              ['close_dec_24', H.dec24],
              ['close_dec_31', H.dec31],
            ] as const
          ).map(([field, text]) => (
            <label key={field} className="flex items-center gap-3 text-sm">
              <input
                type="checkbox"
                className="h-5 w-5 shrink-0 accent-brand-700"
                checked={settings[field]}
                disabled={busy}
                aria-describedby="holidays-dec-hint"
                onChange={(e) => void save({ [field]: e.target.checked })}
              />
              <span className="font-medium">{text}</span>
            </label>
          ))}
          <p id="holidays-dec-hint" className="text-xs text-slate-600">
            {H.decHint}
          </p>
        </fieldset>
      )}
      {holidays && settings && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold">{H.upcoming}</h3>
          <ul className="mt-1 divide-y divide-slate-100 rounded-md border border-slate-200">
            {holidays.map((h) => {
              const opened = settings.opened.includes(h.date);
              return (
                <li key={h.date} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
                  <span className="w-28 tabular-nums">
                    {weekday.format(new Date(`${h.date}T12:00:00Z`))} {formatShortDate(h.date)}
                  </span>
                  <span className="min-w-40 flex-1 font-medium">{h.name}</span>
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      className="h-5 w-5 accent-brand-700"
                      checked={opened}
                      disabled={busy}
                      aria-label={H.open(h.name, formatShortDate(h.date))}
                      onChange={(e) => toggleOpened(h.date, e.target.checked)}
                    />
                    <span className={opened ? 'font-semibold text-amber-900' : 'text-slate-700'}>{opened ? H.opened : H.closed}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </details>
  );
}
