/**
 * The status page's small plain script (docs/decisions/036-patient-requests.md):
 * reads the link's token, asks GET /api/requests/status and shows kind,
 * reference, when it arrived, the status and the practice's message. No
 * framework; the texts come from the page.
 */
import type { RequestStatusDto } from '../../lib/request-schema';

export async function bootRequestStatus(root: HTMLElement): Promise<void> {
  const lang = root.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(root.dataset.texts ?? '{}') as Record<string, string>;
  const say = (key: string) => {
    const p = document.createElement('p');
    p.className = 'text-slate-800';
    p.textContent = texts[key] ?? '';
    root.replaceChildren(p);
  };
  const token = new URLSearchParams(location.search).get('token') ?? '';
  let status: RequestStatusDto;
  try {
    const response = await fetch(`/api/requests/status?token=${encodeURIComponent(token)}`, { headers: { accept: 'application/json' } });
    if (response.status === 404 || response.status === 400) return say('requests.status.unknown');
    if (!response.ok) return say('requests.status.failed');
    status = (await response.json()) as RequestStatusDto;
  } catch {
    return say('requests.status.failed');
  }
  const received = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date(status.received_at));
  const rows: Array<[string, string]> = [
    ['requests.status.kind', texts[`requests.kind.${status.kind}`] ?? status.kind],
    ['requests.status.reference', status.reference],
    ['requests.status.received', received],
    ['requests.status.state', texts[`requests.status.${status.status}`] ?? status.status],
  ];
  if (status.message) rows.push(['requests.status.message', status.message]);
  const list = document.createElement('dl');
  list.className = 'divide-y divide-slate-200 rounded-lg border border-slate-200';
  for (const [label, value] of rows) {
    const row = document.createElement('div');
    row.className = 'grid gap-1 p-4 sm:grid-cols-[12rem_1fr]';
    const dt = document.createElement('dt');
    dt.className = 'font-semibold text-slate-900';
    dt.textContent = texts[label] ?? '';
    const dd = document.createElement('dd');
    dd.className = 'min-w-0 whitespace-pre-line break-words text-slate-800';
    dd.textContent = value;
    row.append(dt, dd);
    list.append(row);
  }
  root.replaceChildren(list);
}
