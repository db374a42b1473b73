/**
 * "Systemstatus" (docs/decisions/045-operations.md): the every-minute job,
 * the outbox per channel, the practice's address, SMS this month, the
 * sealed patient data held and when the next deletion is due, the version
 * and the database's round trip. Counts and times only; the server audits
 * every look. Laid out as lists of terms, so it reads at 360 px.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { ChannelFigures, SystemStatus } from '../../../server/operations/system-status.server';
import { labels } from '../shared/labels';
import { Loading, PageHeader, secondaryButton } from '../shared/ui';
import { systemLabels as L } from './system-labels';

const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });
const at = (iso: string | null, none: string = L.outbox.none) => (iso ? when.format(new Date(iso)) : none);

const JOB_MISSED_MS = 5 * 60_000;

function Card({ id, title, children, alarm = false }: { id: string; title: string; children: ReactNode; alarm?: boolean }) {
  return (
    <section aria-labelledby={id} className={`rounded-lg border bg-white p-4 shadow-sm ${alarm ? 'border-red-300' : 'border-slate-200'}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Terms({ items }: { items: Array<[string, ReactNode, boolean?]> }) {
  return (
    <dl className="mt-3 space-y-2 text-sm">
      {items.map(([term, value, alarm]) => (
        <div key={term} className="flex flex-wrap justify-between gap-x-4 gap-y-0.5">
          <dt className="text-slate-600">{term}</dt>
          <dd className={`font-medium ${alarm ? 'text-red-800' : ''}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Channel({ name, figures, maxAgeMinutes, now }: { name: string; figures: ChannelFigures; maxAgeMinutes: number; now: number }) {
  const overdue = figures.oldest_pending_at !== null && now - new Date(figures.oldest_pending_at).getTime() > maxAgeMinutes * 60_000;
  return (
    <div className="mt-3">
      <h3 className="font-semibold">{name}</h3>
      <Terms
        items={[
          [L.outbox.pending, figures.pending],
          [L.outbox.retrying, figures.retrying, figures.retrying > 0],
          [L.outbox.failed24h, figures.failed_24h, figures.failed_24h > 0],
          [L.outbox.oldest, overdue ? `${at(figures.oldest_pending_at)} – ${L.outbox.overdue}` : at(figures.oldest_pending_at), overdue],
          [L.outbox.lastError, figures.last_error ? <code className="break-all">{figures.last_error}</code> : L.outbox.none],
        ]}
      />
    </div>
  );
}

export function SystemPage() {
  const [status, setStatus] = useState<SystemStatus | null>(null);
  const [loadedAt, setLoadedAt] = useState(() => Date.now());

  const load = useCallback(async () => {
    try {
      const res = await fetch('/api/admin/system', { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      setStatus((await res.json()) as SystemStatus);
      setLoadedAt(Date.now());
    } catch {
      toast.error(labels.common.error, { description: L.loadError });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const jobLate = !!status && (!status.job.last_run_at || loadedAt - new Date(status.job.last_run_at).getTime() > JOB_MISSED_MS);
  const jobFailed = status?.job.outcome === 'failed';

  return (
    <>
      <PageHeader
        title={labels.nav.system}
        intro={L.intro}
        action={
          <button type="button" className={secondaryButton} onClick={() => void load()}>
            {L.refresh}
          </button>
        }
      />
      {!status ? (
        <Loading />
      ) : (
        <div className="grid max-w-5xl items-start gap-4 lg:grid-cols-2">
          <Card id="system-job" title={L.job.title} alarm={jobLate || jobFailed}>
            <Terms
              items={[
                [L.job.lastRun, status.job.last_run_at && jobLate ? `${at(status.job.last_run_at)} – ${L.job.late}` : at(status.job.last_run_at, L.job.never), jobLate],
                [L.job.outcome, status.job.outcome === null ? L.outbox.none : jobFailed ? L.job.failed(status.job.failed_steps.join(', ')) : L.job.ok, jobFailed],
                [L.job.duration, status.job.duration_ms === null ? L.outbox.none : L.version.ms(status.job.duration_ms)],
              ]}
            />
          </Card>
          <Card id="system-outbox" title={L.outbox.title}>
            <p className="mt-1 text-sm text-slate-600">{L.outbox.limit(status.outbox.max_age_minutes)}</p>
            <Channel name={L.outbox.email} figures={status.outbox.email} maxAgeMinutes={status.outbox.max_age_minutes} now={loadedAt} />
            <Channel name={L.outbox.sms} figures={status.outbox.sms} maxAgeMinutes={status.outbox.max_age_minutes} now={loadedAt} />
          </Card>
          <Card id="system-practice-mail" title={L.practiceMail.title} alarm={status.practice_mail.bounced}>
            <p className={`mt-3 text-sm font-medium ${status.practice_mail.bounced ? 'text-red-800' : ''}`}>
              {status.practice_mail.bounced ? L.practiceMail.bounced : L.practiceMail.ok}
            </p>
          </Card>
          <Card id="system-sms" title={L.sms.title}>
            <p className="mt-3 text-sm font-medium">
              {status.sms.configured ? L.sms.of(status.sms.sent_this_month, status.sms.limit) : L.sms.notConfigured}
            </p>
          </Card>
          <Card id="system-held" title={L.held.title}>
            <Terms
              items={[
                [L.held.contacts, status.held.contacts],
                [L.held.requests, status.held.requests],
                [L.held.waitlist, status.held.waitlist],
                [L.held.nextPurge, at(status.next_purge_at, L.held.nothing)],
              ]}
            />
          </Card>
          <Card id="system-version" title={L.version.title} alarm={!status.migration.current}>
            <Terms
              items={[
                [
                  L.version.migration,
                  `${status.migration.applied ?? L.outbox.none} – ${status.migration.current ? L.version.current : L.version.behind(status.migration.bundled)}`,
                  !status.migration.current,
                ],
                [L.version.commit, <code className="break-all">{status.commit}</code>],
                [L.version.node, status.node],
                [L.version.database, L.version.ms(status.db_ms)],
              ]}
            />
          </Card>
          <p className="text-sm text-slate-600 lg:col-span-2">{L.handbook}</p>
        </div>
      )}
    </>
  );
}
