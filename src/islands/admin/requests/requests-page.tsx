/**
 * "Anfragen": reception's queue of patient requests (docs/decisions/036-patient-requests.md).
 * Open requests oldest first, filtered by status and kind (kept in the
 * page's address); a request opens with every field and a copy button for
 * the practice software, and moves neu → in Bearbeitung → erledigt (message
 * optional) or abgelehnt (message required); each change emails the patient
 * on closing and is audited on the server. The settings panel switches the
 * kinds the public form offers and sets its notices. The printout lists the
 * shown requests with their details, every page marked confidential and
 * numbered (admin-page.astro).
 */
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { REQUEST_KINDS, REQUEST_LIMITS, REQUEST_STATUS_FILTERS, type RequestKind, type RequestStatusFilter } from '../../../lib/request-schema';
import { adminApi, ApiError, failureText, type RequestSettings, type StaffRequestDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { FormDialog, inputClass, ListTable, PageHeader, PrintButton, dangerButton, primaryButton, secondaryButton } from '../shared/ui';
import { requestLabels as L } from './request-labels';

const C = labels.common;

/** Tells the navigation's count that the queue changed. */
export const REQUESTS_CHANGED = 'praxis:requests-changed';

const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
export const receivedText = (iso: string) => stamp.format(new Date(iso));
const germanDate = (iso: string) => iso.split('-').reverse().join('.');
const weekdayDate = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

interface Filter {
  status: RequestStatusFilter;
  kind: RequestKind | '';
}

function filterFromUrl(): Filter {
  const query = new URLSearchParams(window.location.search);
  const status = query.get('status') as RequestStatusFilter | null;
  const kind = query.get('art') as RequestKind | null;
  return { status: status && REQUEST_STATUS_FILTERS.includes(status) ? status : 'open', kind: kind && REQUEST_KINDS.includes(kind) ? kind : '' };
}

function putFilterInUrl(filter: Filter): void {
  const url = new URL(window.location.href);
  if (filter.status === 'open') url.searchParams.delete('status');
  else url.searchParams.set('status', filter.status);
  if (filter.kind) url.searchParams.set('art', filter.kind);
  else url.searchParams.delete('art');
  window.history.replaceState(window.history.state, '', url);
}

/** The patient as the list names them: "Mustermann, Erika (geb. 12.08.1964)", or why there is no name. */
export function patientLine(row: StaffRequestDto): string {
  if (row.details) return `${row.details.last_name}, ${row.details.first_name} (${L.born(germanDate(row.details.birth_date))})`;
  return row.details_state === 'unreadable' ? L.detailsUnreadable : L.detailsDeleted;
}

export interface DetailRow {
  label: string;
  value: string;
  /** What the copy button copies (the value unless said). */
  copy?: string;
}

/** Every field of a request, in the order reception types them into the practice software. */
export function detailRows(row: StaffRequestDto): DetailRow[] {
  const d = row.details;
  if (!d) return [];
  const out: DetailRow[] = [
    { label: L.field.name, value: `${d.first_name} ${d.last_name}` },
    { label: L.field.birthDate, value: germanDate(d.birth_date) },
  ];
  if (d.medications) {
    d.medications.forEach((m, i) => out.push({ label: L.field.medication(i + 1), value: [m.name, m.strength, m.pack].filter(Boolean).join(' · '), copy: [m.name, m.strength, m.pack].filter(Boolean).join(' ') }));
  }
  if (d.insurance) out.push({ label: L.field.insurance, value: L.values[d.insurance] });
  if (d.delivery) out.push({ label: L.field.delivery, value: L.values[d.delivery] });
  if (d.delivery === 'card') out.push({ label: L.field.cardRead, value: d.card_read_this_quarter ? L.values.yes : L.values.no });
  if (d.specialty) out.push({ label: L.field.specialty, value: d.specialty });
  if (d.reason) out.push({ label: L.field.reason, value: d.reason });
  if (d.callback_date) out.push({ label: L.field.callbackDate, value: weekdayDate.format(new Date(`${d.callback_date}T12:00:00Z`)) });
  if (d.daypart) out.push({ label: L.field.daypart, value: L.values[d.daypart] });
  if (d.topic) out.push({ label: L.field.topic, value: d.topic });
  if (d.phone) out.push({ label: L.field.phone, value: d.phone });
  out.push({ label: L.field.email, value: d.email });
  out.push({ label: L.field.language, value: L.values[d.language] });
  if (d.note) out.push({ label: L.field.note, value: d.note });
  return out;
}

export function RequestsPage() {
  const [filter, setFilter] = useState<Filter>(filterFromUrl);
  const [rows, setRows] = useState<StaffRequestDto[] | null>(null);
  const [opened, setOpened] = useState<StaffRequestDto | null>(null);

  const load = useCallback(async () => {
    try {
      setRows(await adminApi.requests.list(filter));
    } catch (error) {
      toast.error(L.loadError, { description: failureText(error) });
    }
  }, [filter]);

  useEffect(() => {
    void load();
  }, [load]);

  function choose(next: Filter) {
    setRows(null);
    setFilter(next);
    putFilterInUrl(next);
  }

  async function changed(next: StaffRequestDto | null) {
    window.dispatchEvent(new Event(REQUESTS_CHANGED));
    await load();
    setOpened(next);
  }

  return (
    <div className="requests-page">
      <div className="print:hidden">
        <PageHeader title={labels.nav.requests} intro={L.intro} action={<PrintButton />} />
        <RequestSettingsPanel />
        <div className="mb-4 flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="requests-status" className="block text-sm font-medium">
              {L.filterStatus}
            </label>
            <select id="requests-status" className={inputClass} value={filter.status} onChange={(e) => choose({ ...filter, status: e.target.value as RequestStatusFilter })}>
              {REQUEST_STATUS_FILTERS.map((status) => (
                <option key={status} value={status}>
                  {L.filters[status]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="requests-kind" className="block text-sm font-medium">
              {L.filterKind}
            </label>
            <select id="requests-kind" className={inputClass} value={filter.kind} onChange={(e) => choose({ ...filter, kind: e.target.value as RequestKind | '' })}>
              <option value="">{L.allKinds}</option>
              {REQUEST_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {L.kinds[kind]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ListTable
          loaded={rows !== null}
          total={rows?.length ?? 0}
          shown={rows?.length ?? 0}
          text={{ empty: filter.status === 'open' && !filter.kind ? L.empty : L.noMatch, noMatch: L.noMatch, caption: L.caption }}
          columns={[...L.columns]}
        >
          {(rows ?? []).map((row) => (
            <tr key={row.id} className={row.status === 'new' ? 'font-medium' : ''}>
              <th scope="row" className="px-3 py-2 font-mono">
                {row.reference}
              </th>
              <td className="px-3 py-2">{L.kinds[row.kind]}</td>
              <td className="px-3 py-2">{patientLine(row)}</td>
              <td className="px-3 py-2 whitespace-nowrap">{receivedText(row.received_at)}</td>
              <td className="px-3 py-2">{L.statuses[row.status]}</td>
              <td className="px-3 py-2">
                <button type="button" className={secondaryButton} aria-label={L.openNamed(row.reference)} onClick={() => setOpened(row)}>
                  {L.open}
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      </div>
      {rows && <PrintedQueue rows={rows} />}
      <RequestDialog request={opened} onClose={() => setOpened(null)} onChanged={changed} />
    </div>
  );
}

/** One field with its copy button. */
function CopyRow({ row }: { row: DetailRow }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(row.copy ?? row.value);
      toast.success(L.copied(row.label));
    } catch {
      toast.error(L.copyFailed);
    }
  }
  return (
    <div className="py-2">
      <dt className="text-sm text-slate-600">{row.label}</dt>
      <dd className="flex items-start justify-between gap-3">
        <span className="min-w-0 break-words whitespace-pre-line text-slate-900">{row.value}</span>
        <button type="button" className={`${secondaryButton} shrink-0`} aria-label={L.copyNamed(row.label)} onClick={() => void copy()}>
          {L.copy}
        </button>
      </dd>
    </div>
  );
}

function RequestDialog({ request, onClose, onChanged }: { request: StaffRequestDto | null; onClose: () => void; onChanged: (next: StaffRequestDto | null) => Promise<void> }) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setMessage('');
    setError(null);
  }, [request?.id]);
  if (!request) return null;
  const open = request.status === 'new' || request.status === 'in_progress';

  async function change(status: 'in_progress' | 'done' | 'declined') {
    if (!request) return;
    if (status === 'declined' && message.trim() === '') {
      setError(L.messageRequired);
      document.getElementById('request-message')?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const changed = await adminApi.requests.change(request.id, { status, ...(status !== 'in_progress' && message.trim() ? { message } : {}) });
      toast.success(L.saved(L.statuses[changed.status]), status === 'in_progress' ? undefined : { description: changed.patient_notified ? L.emailed : L.notEmailed });
      await onChanged(status === 'in_progress' ? changed : null);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        toast.error(C.saveError, { description: L.conflict });
        await onChanged(null);
      } else if (failure instanceof ApiError && failure.status === 400) {
        setError(L.messageRequired);
      } else {
        toast.error(C.saveError, { description: failureText(failure) });
      }
    } finally {
      setBusy(false);
    }
  }

  const rows = detailRows(request);
  return (
    <FormDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={L.dialogTitle(L.kinds[request.kind], request.reference)}
      description={L.dialogDescription(receivedText(request.received_at), L.statuses[request.status])}
    >
      {rows.length ? (
        <dl className="divide-y divide-slate-100">
          {rows.map((row) => (
            <CopyRow key={row.label} row={row} />
          ))}
        </dl>
      ) : (
        <p className="text-slate-700">{request.details_state === 'unreadable' ? L.detailsUnreadable : L.detailsDeleted}</p>
      )}
      {request.message && (
        <div className="mt-4 rounded-md bg-slate-50 p-3">
          <p className="text-sm text-slate-600">{L.field.message}</p>
          <p className="whitespace-pre-line">{request.message}</p>
        </div>
      )}
      {open ? (
        <div className="mt-6 space-y-3 border-t border-slate-200 pt-4">
          {request.status === 'new' && (
            <button type="button" className={secondaryButton} disabled={busy} onClick={() => void change('in_progress')}>
              {L.takeOn}
            </button>
          )}
          <div>
            <label htmlFor="request-message" className="block text-sm font-medium">
              {L.messageLabel}
            </label>
            <p id="request-message-hint" className="text-sm text-slate-600">
              {L.messageHint}
            </p>
            <textarea
              id="request-message"
              rows={3}
              maxLength={REQUEST_LIMITS.messageMax}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'request-message-hint request-message-error' : 'request-message-hint'}
              className={inputClass}
            />
            {error && (
              <p id="request-message-error" className="mt-1 text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" className={dangerButton} disabled={busy} onClick={() => void change('declined')}>
              {L.decline}
            </button>
            <button type="button" className={primaryButton} disabled={busy} onClick={() => void change('done')}>
              {L.done}
            </button>
          </div>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">{L.closedNote}</p>
      )}
    </FormDialog>
  );
}

/** The kinds the public form offers and its notices (PUT /api/admin/settings `requests`). */
function RequestSettingsPanel() {
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

/** The printout: every shown request with its details, for working through on paper. */
function PrintedQueue({ rows }: { rows: StaffRequestDto[] }) {
  return (
    <section className="hidden print:block">
      <p className="requests-print-confidential font-semibold">{L.print.confidential}</p>
      <h1 className="text-xl font-semibold">
        {L.print.title} ({rows.length})
      </h1>
      {rows.map((row) => (
        <article key={row.id} className="requests-print-item mt-3 border-t border-black pt-2">
          <h2 className="font-semibold">
            {row.reference} · {L.kinds[row.kind]} · {receivedText(row.received_at)} · {L.statuses[row.status]}
          </h2>
          {row.details ? (
            <dl className="grid grid-cols-[11rem_1fr] gap-x-3 text-sm">
              {detailRows(row).map((d) => (
                <div key={d.label} className="contents">
                  <dt>{d.label}</dt>
                  <dd className="break-words whitespace-pre-line">{d.value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm">{patientLine(row)}</p>
          )}
        </article>
      ))}
    </section>
  );
}
