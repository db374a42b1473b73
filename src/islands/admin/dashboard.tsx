/** The dashboard: its figures (low stock and expiring items beside each other) and quick links (SPEC.md §2 Admin pages). */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { labels } from './labels';

interface Stats {
  bookedTotal: number;
  bookedToday: number;
  appointmentTypes: number;
  blockedDates: number;
  lowStock: number;
  expiringSoon: number;
  unnotified: number;
}

const L = labels.dashboard;
const CARDS: Array<{ key: keyof Stats; label: string }> = [
  { key: 'bookedTotal', label: L.bookedTotal },
  { key: 'bookedToday', label: L.bookedToday },
  { key: 'appointmentTypes', label: L.appointmentTypes },
  { key: 'blockedDates', label: L.blockedDates },
  { key: 'lowStock', label: L.lowStock },
  { key: 'expiringSoon', label: L.expiringSoon },
  { key: 'unnotified', label: L.unnotified },
];

export function Dashboard() {
  const [stats, setStats] = useState<Stats | null>(null);

  useEffect(() => {
    fetch('/api/admin/stats', { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        setStats((await res.json()) as Stats);
      })
      .catch(() => toast.error(L.loadError));
  }, []);

  return (
    <>
      <h1 className="text-2xl font-semibold">{labels.nav.dashboard}</h1>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        {CARDS.map((card) => {
          const value = stats?.[card.key];
          const alarm = (card.key === 'lowStock' || card.key === 'expiringSoon' || card.key === 'unnotified') && (value ?? 0) > 0;
          return (
            <div key={card.key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <dt className="text-sm text-slate-600">{card.label}</dt>
              <dd className={`mt-2 text-3xl font-bold ${alarm ? 'text-red-600' : 'text-slate-900'}`}>{value ?? '–'}</dd>
            </div>
          );
        })}
      </dl>
      <h2 className="mt-8 text-lg font-semibold">{L.quickLinks}</h2>
      <ul className="mt-3 flex flex-wrap gap-3">
        {(['appointment-types', 'time-slots', 'day-list', 'inventory'] as const).map((p) => (
          <li key={p}>
            <a href={`/admin/${p}`} className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50">
              {labels.nav[p]}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}
