/**
 * "Anfragen": reception's queue of patient requests (docs/decisions/036-patient-requests.md).
 * Open requests oldest first, filtered by status and kind (kept in the
 * page's address); a request opens with every field and a copy button for
 * the practice software, and moves neu → in Bearbeitung → erledigt (message
 * optional) or abgelehnt (message required); each change emails the patient
 * on closing and is audited on the server. The settings panel switches the
 * kinds the public form offers and sets its notices. The printout lists the
 * shown requests with their details, every page marked confidential and
 * numbered (admin-page.astro), under a title that follows the filter.
 * The call-back's day and part of day are columns; "Rückrufe heute" shows
 * only today's call-backs (Berlin), Vormittag before Nachmittag
 * (docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { berlinToday } from '../../../lib/berlin-time';
import { REQUEST_KINDS, REQUEST_STATUS_FILTERS, type RequestKind, type RequestStatusFilter } from '../../../lib/request-schema';
import { adminApi, failureText, type StaffRequestDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { inputClass, ListTable, PageHeader, PrintButton, secondaryButton } from '../shared/ui';
import { RequestDialog } from './request-dialog';
import { patientLine, PrintedQueue, receivedText } from './request-details';
import { requestLabels as L } from './request-labels';
import { RequestSettingsPanel } from './request-settings';
import { callbackDayText, callbacksOf, daypartText, printTitle, type QueueFilter } from './request-views';

export { detailRows } from './request-details';

/** Tells the navigation's count that the queue changed. */
export const REQUESTS_CHANGED = 'praxis:requests-changed';

type Filter = QueueFilter;

/** `?ansicht=rueckrufe-heute`: the view of today's call-backs. */
const CALLBACKS_TODAY = 'rueckrufe-heute';

function filterFromUrl(): Filter {
  const query = new URLSearchParams(window.location.search);
  const status = query.get('status') as RequestStatusFilter | null;
  const kind = query.get('art') as RequestKind | null;
  return {
    status: status && REQUEST_STATUS_FILTERS.includes(status) ? status : 'open',
    kind: kind && REQUEST_KINDS.includes(kind) ? kind : '',
    callbacksToday: query.get('ansicht') === CALLBACKS_TODAY,
  };
}

function putFilterInUrl(filter: Filter): void {
  const url = new URL(window.location.href);
  if (filter.status === 'open') url.searchParams.delete('status');
  else url.searchParams.set('status', filter.status);
  if (filter.kind) url.searchParams.set('art', filter.kind);
  else url.searchParams.delete('art');
  if (filter.callbacksToday) url.searchParams.set('ansicht', CALLBACKS_TODAY);
  else url.searchParams.delete('ansicht');
  window.history.replaceState(window.history.state, '', url);
}

export function RequestsPage() {
  const [filter, setFilter] = useState<Filter>(filterFromUrl);
  const [rows, setRows] = useState<StaffRequestDto[] | null>(null);
  const [opened, setOpened] = useState<StaffRequestDto | null>(null);

  const load = useCallback(async () => {
    try {
      // Today's call-backs are call-backs, whatever kind was chosen before.
      setRows(await adminApi.requests.list({ status: filter.status, kind: filter.callbacksToday ? 'callback' : filter.kind }));
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

  const today = berlinToday();
  const shown = rows && filter.callbacksToday ? callbacksOf(rows, today) : rows;

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
            <select
              id="requests-kind"
              className={inputClass}
              value={filter.callbacksToday ? 'callback' : filter.kind}
              disabled={filter.callbacksToday}
              onChange={(e) => choose({ ...filter, kind: e.target.value as RequestKind | '' })}
            >
              <option value="">{L.allKinds}</option>
              {REQUEST_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {L.kinds[kind]}
                </option>
              ))}
            </select>
          </div>
          <div role="group" aria-label={L.view} className="flex flex-wrap gap-2">
            <button type="button" className={secondaryButton} aria-pressed={!filter.callbacksToday} onClick={() => choose({ ...filter, callbacksToday: false })}>
              {L.allRequests}
            </button>
            <button
              type="button"
              className={secondaryButton}
              aria-pressed={filter.callbacksToday}
              aria-describedby="requests-callbacks-hint"
              onClick={() => choose({ ...filter, callbacksToday: true })}
            >
              {L.callbacksToday}
            </button>
            <span id="requests-callbacks-hint" className="sr-only">
              {L.callbacksTodayHint}
            </span>
          </div>
        </div>
        <ListTable
          loaded={shown !== null}
          total={shown?.length ?? 0}
          shown={shown?.length ?? 0}
          text={{
            empty: filter.callbacksToday ? L.noCallbacksToday : filter.status === 'open' && !filter.kind ? L.empty : L.noMatch,
            noMatch: L.noMatch,
            caption: filter.callbacksToday ? L.callbacksToday : L.caption,
          }}
          columns={[...L.columns]}
        >
          {(shown ?? []).map((row) => (
            <tr key={row.id} className={row.status === 'new' ? 'font-medium' : ''}>
              <th scope="row" className="px-3 py-2 font-mono">
                {row.reference}
              </th>
              <td className="px-3 py-2">{L.kinds[row.kind]}</td>
              <td className="px-3 py-2">{patientLine(row)}</td>
              <td className="px-3 py-2 whitespace-nowrap">{receivedText(row.received_at)}</td>
              <td className="px-3 py-2 whitespace-nowrap">{callbackDayText(row)}</td>
              <td className="px-3 py-2">{daypartText(row)}</td>
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
      {shown && <PrintedQueue rows={shown} title={printTitle(filter, today)} />}
      <RequestDialog request={opened} onClose={() => setOpened(null)} onChanged={changed} />
    </div>
  );
}

