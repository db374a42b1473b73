/**
 * The waitlist in the back office (docs/decisions/032-waitlist.md): per day
 * and type how many wait (the week view, the dashboard's tile; no names),
 * and on request the list itself with names, range and when they asked
 * (each showing is an audit row). German only, like the whole back office.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { formatShortDate } from '../../../lib/dates';
import type { StaffWaitlistEntry, WaitlistCounts } from '../../../server/waitlist/staff.server';
import { Loading, secondaryButton } from '../shared/ui';

const L = {
  title: 'Warteliste',
  intro: 'Patientinnen und Patienten, die einen früheren Termin wünschen. Wird ein passender Termin frei, bekommen bis zu fünf je Platz automatisch ein Angebot per E-Mail; wer zuerst zusagt, bekommt ihn.',
  none: 'In dieser Woche wartet niemand.',
  day: 'Tag',
  type: 'Terminart',
  count: 'Wartend',
  show: 'Namen anzeigen',
  hide: 'Namen ausblenden',
  listCaption: 'Warteliste mit Namen (vertraulich)',
  empty: 'Die Warteliste ist leer.',
  name: 'Name',
  birthDate: 'Geburtsdatum',
  range: 'Zeitraum',
  wish: 'Wunsch',
  current: 'Bisheriger Termin',
  asked: 'Eingetragen',
  noBooking: 'noch keiner',
  unreadable: 'nicht lesbar',
  anyDay: 'alle Tage',
  morning: 'vormittags',
  afternoon: 'nachmittags',
  loadError: 'Warteliste konnte nicht geladen werden.',
  tile: 'Auf der Warteliste',
} as const;
const WEEKDAYS = ['', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];

async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as T;
}

export function useWaitlistCounts(from: string, to: string): WaitlistCounts | null {
  const [counts, setCounts] = useState<WaitlistCounts | null>(null);
  useEffect(() => {
    let live = true;
    setCounts(null);
    get<WaitlistCounts>(`/api/admin/waitlist/counts?${new URLSearchParams({ from, to })}`)
      .then((c) => live && setCounts(c))
      .catch(() => toast.error(L.loadError));
    return () => {
      live = false;
    };
  }, [from, to]);
  return counts;
}

/** The dashboard's figure: everyone on the list, linked to the week view's section. */
export function WaitlistTile({ from, to }: { from: string; to: string }) {
  const counts = useWaitlistCounts(from, to);
  return (
    <div className="relative rounded-lg border border-slate-200 bg-white p-4 shadow-sm focus-within:ring-2 focus-within:ring-brand-600 hover:border-brand-600">
      <dt className="text-sm text-slate-600">
        <a href="/admin/woche#warteliste" className="after:absolute after:inset-0 after:content-[''] focus:outline-none">
          {L.tile}
        </a>
      </dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{counts?.total ?? '–'}</dd>
    </div>
  );
}

function wish(e: StaffWaitlistEntry): string {
  const days = e.weekdays.length === 7 ? L.anyDay : e.weekdays.map((d) => WEEKDAYS[d]).join(', ');
  const parts = e.dayparts.length === 2 ? '' : `, ${e.dayparts.map((p) => (p === 'morning' ? L.morning : L.afternoon)).join(', ')}`;
  return `${days}${parts}`;
}

/** The week view's section: counts per day and type, and the list with names on request. */
export function WaitlistSection({ from, to }: { from: string; to: string }) {
  const counts = useWaitlistCounts(from, to);
  const [list, setList] = useState<StaffWaitlistEntry[] | null>(null);
  const [open, setOpen] = useState(false);

  async function show() {
    setOpen(true);
    try {
      setList(await get<StaffWaitlistEntry[]>('/api/admin/waitlist'));
    } catch {
      toast.error(L.loadError);
      setOpen(false);
    }
  }

  return (
    <section id="warteliste" aria-labelledby="waitlist-heading" className="mt-8 print:hidden">
      <h2 id="waitlist-heading" className="text-lg font-semibold">
        {L.title} {counts ? `(${counts.total})` : ''}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{L.intro}</p>
      {counts === null ? (
        <Loading />
      ) : counts.days.length === 0 ? (
        <p className="mt-2 text-slate-600">{L.none}</p>
      ) : (
        <table className="mt-3 w-full max-w-xl text-left text-sm">
          <thead>
            <tr>
              <th className="py-1 pr-4">{L.day}</th>
              <th className="py-1 pr-4">{L.type}</th>
              <th className="py-1">{L.count}</th>
            </tr>
          </thead>
          <tbody>
            {counts.days.map((d) => (
              <tr key={`${d.date}-${d.appointment_type_id}`} className="border-t border-slate-100">
                <td className="py-1 pr-4 tabular-nums">{formatShortDate(d.date)}</td>
                <td className="py-1 pr-4">{d.type_name}</td>
                <td className="py-1 tabular-nums">{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className={`${secondaryButton} mt-4`} onClick={() => (open ? setOpen(false) : void show())} aria-expanded={open}>
        {open ? L.hide : L.show}
      </button>
      {open &&
        (list === null ? (
          <Loading />
        ) : list.length === 0 ? (
          <p className="mt-2 text-slate-600">{L.empty}</p>
        ) : (
          <ul aria-label={L.listCaption} className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {list.map((e) => (
              <li key={e.id} className="grid gap-1 px-4 py-2 text-sm sm:grid-cols-3">
                <span className="font-semibold">
                  {e.first_name === null ? L.unreadable : `${e.last_name}, ${e.first_name}`}
                  {e.birth_date && <span className="font-normal text-slate-600"> · {L.birthDate} {formatShortDate(e.birth_date)}</span>}
                </span>
                <span>
                  {e.type_name} · {L.range} {formatShortDate(e.from)}–{formatShortDate(e.to)} · {wish(e)}
                </span>
                <span className="text-slate-600">
                  {L.current}: {e.current ? `${formatShortDate(e.current.date)} ${e.current.time}${e.current.reference ? ` (${e.current.reference})` : ''}` : L.noBooking} · {L.asked}{' '}
                  {new Date(e.asked_at).toLocaleString('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' })}
                </span>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
