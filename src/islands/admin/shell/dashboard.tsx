/**
 * The dashboard: its figures, each a link to the page filtered to what it
 * counts (docs/decisions/020-reception.md), today's remaining appointments, and quick
 * links.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { berlinToday, berlinWallClock } from '../../../lib/berlin-time';
import { useSchedule } from '../bookings/day-schedule';
import { labels } from '../shared/labels';
import { Loading } from '../shared/ui';
import { remainingToday } from '../shared/views';
import { WaitlistTile } from '../bookings/waitlist-panel';
import type { NoShowFigures } from '../../../server/admin-stats.server';

interface Stats {
  bookedTotal: number;
  bookedToday: number;
  appointmentTypes: number;
  blockedDates: number;
  lowStock: number;
  expiringSoon: number;
  unnotified: number;
  needsCall: number;
  /** When the practice's own address last refused a message; null when all is well (docs/decisions/035). */
  practiceMailBouncedAt: string | null;
  requestsNew: number;
  requestsOpen: number;
  noShows: NoShowFigures[];
  /** SMS this month against the limit, and whether SMS is set up (docs/decisions/043-sms-second-channel.md). */
  sms?: { sent_this_month: number; limit: number; configured: boolean };
}

type Figure = Exclude<keyof Stats, 'noShows' | 'requestsNew' | 'practiceMailBouncedAt' | 'sms'>;

const L = labels.dashboard;

const bouncedAt = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

/** Each figure and the page that shows what it counts. */
function cards(today: string): Array<{ key: Figure; label: string; href: string; alarm?: boolean; hint?: string }> {
  return [
    { key: 'bookedTotal', label: L.bookedTotal, href: '/admin/booked-slots' },
    { key: 'bookedToday', label: L.bookedToday, href: `/admin/day-list?datum=${today}` },
    // Patient requests waiting for reception (docs/decisions/036).
    { key: 'requestsOpen', label: L.requestsOpen, href: '/admin/anfragen' },
    { key: 'appointmentTypes', label: L.appointmentTypes, href: '/admin/appointment-types' },
    { key: 'blockedDates', label: L.blockedDates, href: '/admin/blocked-dates' },
    { key: 'lowStock', label: L.lowStock, href: '/admin/inventory?filter=low-stock', alarm: true },
    { key: 'expiringSoon', label: L.expiringSoon, href: '/admin/inventory?filter=expiring', alarm: true },
    // Says what it counts: the practice's email about these bookings failed (the bookings stand).
    { key: 'unnotified', label: L.unnotified, href: '/admin/booked-slots?filter=unnotified', alarm: true, hint: L.unnotifiedHint },
    // Patients no email reached about a change: staff call them, then mark them reached (docs/decisions/035).
    { key: 'needsCall', label: L.needsCall, href: '/admin/booked-slots?filter=needs-call', alarm: true, hint: L.needsCallHint },
  ];
}

export function Dashboard() {
  const [stats, setStats] = useState<Stats | null>(null);
  const today = berlinToday();

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
      {stats?.practiceMailBouncedAt && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950">
          {labels.notice.practiceBounced(bouncedAt.format(new Date(stats.practiceMailBouncedAt)))}
        </p>
      )}
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        {cards(today).map((card) => {
          const value = stats?.[card.key];
          const alarm = card.alarm && (value ?? 0) > 0;
          return (
            // The card's label is its link, stretched over the whole card.
            <div key={card.key} className="relative rounded-lg border border-slate-200 bg-white p-4 shadow-sm focus-within:ring-2 focus-within:ring-brand-600 hover:border-brand-600">
              <dt className="text-sm text-slate-600">
                <a
                  href={card.href}
                  aria-describedby={card.hint ? `card-${card.key}-hint` : undefined}
                  className="after:absolute after:inset-0 after:content-[''] focus:outline-none"
                >
                  {card.label}
                </a>
                {card.hint && (
                  <span id={`card-${card.key}-hint`} className="mt-1 block text-xs text-slate-600">
                    {card.hint}
                  </span>
                )}
              </dt>
              <dd className={`mt-2 text-3xl font-bold ${alarm ? 'text-red-600' : 'text-slate-900'}`}>{value ?? '–'}</dd>
            </div>
          );
        })}
        <WaitlistTile from={today} to={today} />
        <SmsTile sms={stats?.sms ?? null} />
      </dl>
      <TodayRemaining today={today} />
      <NoShows figures={stats?.noShows ?? null} />
      <h2 className="mt-8 text-lg font-semibold">{L.quickLinks}</h2>
      <ul className="mt-3 flex flex-wrap gap-3">
        {(['appointment-types', 'time-slots', 'week', 'day-list', 'inventory'] as const).map((p) => (
          <li key={p}>
            <a
              href={p === 'week' ? '/admin/woche' : `/admin/${p}`}
              className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50"
            >
              {labels.nav[p]}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * "SMS diesen Monat": the parts handed to the provider this month against
 * SMS_MONTHLY_LIMIT (red at the limit: further SMS go on the call list),
 * or that SMS is not set up (docs/decisions/043-sms-second-channel.md).
 */
function SmsTile({ sms }: { sms: NonNullable<Stats['sms']> | null }) {
  const S = labels.sms;
  const full = sms !== null && sms.configured && sms.sent_this_month >= sms.limit;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">
        {S.tile}
        <span className="mt-1 block text-xs text-slate-600">{sms && !sms.configured ? S.notConfigured : full ? S.full : S.hint}</span>
      </dt>
      <dd className={`mt-2 text-3xl font-bold ${full || (sms && !sms.configured) ? 'text-red-600' : 'text-slate-900'}`}>
        {sms === null ? '–' : sms.configured ? S.count(sms.sent_this_month, sms.limit) : S.off}
      </dd>
    </div>
  );
}

/**
 * "Nicht erschienen": per type, the bookings marked "nicht erschienen" out
 * of all marked in the last 30 and 90 days (docs/decisions/026).
 */
function NoShows({ figures }: { figures: NoShowFigures[] | null }) {
  const N = L.noShows;
  return (
    <section aria-labelledby="no-shows" className="mt-8">
      <h2 id="no-shows" className="text-lg font-semibold">
        {N.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{N.intro}</p>
      {figures === null ? (
        <Loading />
      ) : figures.length === 0 ? (
        <p className="mt-2 text-slate-600">{N.none}</p>
      ) : (
        <div className="list-table mt-3">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">{N.heading}</caption>
            <thead>
              <tr className="border-b-2 border-slate-300">
                <th scope="col" className="px-2 py-1.5">{N.type}</th>
                <th scope="col" className="px-2 py-1.5">{N.last(30)}</th>
                <th scope="col" className="px-2 py-1.5">{N.last(90)}</th>
              </tr>
            </thead>
            <tbody>
              {figures.map((f) => (
                <tr key={f.appointment_type_id} className="border-b border-slate-200">
                  <td data-label={N.type} className="px-2 py-1.5">{f.type_name}</td>
                  <td data-label={N.last(30)} className="px-2 py-1.5 tabular-nums">{N.ofMarked(f.no_show_30, f.marked_30)}</td>
                  <td data-label={N.last(90)} className="px-2 py-1.5 tabular-nums">{N.ofMarked(f.no_show_90, f.marked_90)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "Heute noch": the appointments of today still to come, in time order. */
function TodayRemaining({ today }: { today: string }) {
  const schedule = useSchedule(today, today, L.todayLoadError);
  const remaining = schedule ? remainingToday(schedule.slots, schedule.durations, today, berlinWallClock(new Date()).time) : null;
  return (
    <section aria-labelledby="today-remaining" className="mt-8">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="today-remaining" className="text-lg font-semibold">
          {L.todayRemaining}
        </h2>
        <a href="/admin/day-list" className="text-sm font-medium text-brand-700 underline">
          {L.toDayList}
        </a>
      </div>
      {remaining === null ? (
        <Loading />
      ) : remaining.length === 0 ? (
        <p className="mt-2 text-slate-600">{L.noneRemaining}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {remaining.map((s) => (
            <li key={s.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-2 text-sm">
              <span className="font-semibold tabular-nums">{s.appointment_time}</span>
              <span className="flex-1">{s.type_name}</span>
              <span className="font-mono tracking-wider">{s.reference}</span>
              <span className="text-slate-600">{labels.booked.sources[s.source] ?? s.source}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
