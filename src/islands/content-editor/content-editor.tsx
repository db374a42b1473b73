/**
 * /admin/inhalte, the content editor, as a page of the back office (its
 * shell has already checked the staff session: signed out → /auth, then
 * back here). The editor's backend is asked first whether it can save
 * (production without the Git settings: 503 not-configured, shown as such,
 * and the editor is not loaded); then Decap CMS is loaded into #nc-root,
 * at every window width: its layout (three columns from 1100 px, one below)
 * is editor-layout.css.
 */
import { useEffect, useState } from 'react';
import { signInPath } from '../auth/auth-client';
import { labels } from '../admin/shared/labels';
import { PageHeader } from '../admin/shared/ui';
import { CONTENT_API, CONTENT_STATUS_API } from '../../lib/content-files';
import type { CmsConfig } from './cms-config';
import { CONTENT_SAVED_EVENT } from './praxis-backend';

const L = labels.contentEditor;
/** The page writes the configuration generated at build time here (src/pages/admin/inhalte.astro). */
export const CONFIG_ELEMENT_ID = 'cms-config';

type Availability = { state: 'checking' } | { state: 'ready'; store: 'local' | 'github' } | { state: 'unavailable'; message: string };

const toSignIn = () => window.location.replace(signInPath(window.location.pathname));

async function availability(): Promise<Availability> {
  try {
    const res = await fetch(CONTENT_API, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (res.status === 401) {
      toSignIn();
      return { state: 'checking' };
    }
    const body = (await res.json().catch(() => null)) as { store?: 'local' | 'github'; type?: string } | null;
    if (res.ok && body?.store) return { state: 'ready', store: body.store };
    return { state: 'unavailable', message: body?.type === 'not-configured' ? L.notConfigured : L.unavailable };
  } catch {
    return { state: 'unavailable', message: L.unavailable };
  }
}

export interface PublishStatus {
  state: 'idle' | 'queued' | 'running' | 'live' | 'failed';
  since: string;
  commit?: { sha: string; url: string };
  detail?: string;
}

/** How often the state is asked while a publication is on its way. */
export const STATUS_POLL_MS = 3000;
const berlinTime = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Berlin' });

async function fetchStatus(): Promise<PublishStatus | null> {
  try {
    const res = await fetch(CONTENT_STATUS_API, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    return res.ok ? ((await res.json()) as PublishStatus) : null;
  } catch {
    return null;
  }
}

/**
 * The state of the last publication, above the editor: asked when the page
 * opens and, after each save, every few seconds until it is live or failed
 * (docs/decisions/031-content-editor-second-pass.md).
 */
export function PublishStatusBar() {
  const [status, setStatus] = useState<PublishStatus | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [watching, setWatching] = useState(0);

  useEffect(() => {
    const onSaved = () => setWatching((n) => n + 1);
    window.addEventListener(CONTENT_SAVED_EVENT, onSaved);
    return () => window.removeEventListener(CONTENT_SAVED_EVENT, onSaved);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const found = await fetchStatus();
      if (cancelled) return;
      setUnavailable(found === null);
      if (found) setStatus(found);
      // Keep asking while it is on its way (and, after a save, until it says so).
      if (found === null || found.state === 'queued' || found.state === 'running') timer = setTimeout(() => void ask(), STATUS_POLL_MS);
    };
    void ask();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [watching]);

  if (!status || status.state === 'idle') {
    return unavailable && watching > 0 ? <p className="text-sm text-slate-600">{L.statusUnavailable}</p> : null;
  }
  const S = L.publishState;
  const text =
    status.state === 'live' ? S.live(berlinTime.format(new Date(status.since))) : status.state === 'failed' ? `${S.failed}: ${status.detail ?? ''}` : S[status.state];
  const tone =
    status.state === 'live'
      ? 'border-emerald-300 bg-emerald-50 text-emerald-900'
      : status.state === 'failed'
        ? 'border-red-300 bg-red-50 text-red-900'
        : 'border-sky-300 bg-sky-50 text-sky-900';
  return (
    <p role="status" aria-live="polite" data-state={status.state} className={`mb-2 flex flex-wrap items-center gap-x-3 rounded-md border px-3 py-2 text-sm ${tone}`}>
      <span className="font-medium">{text}</span>
      {status.state !== 'failed' && status.detail && <span>{status.detail}</span>}
      {status.commit?.url && (
        <a href={status.commit.url} target="_blank" rel="noopener noreferrer" className="underline">
          {L.commitLink} ({status.commit.sha.slice(0, 7)})
        </a>
      )}
    </p>
  );
}

export function ContentEditor({ email }: { email: string }) {
  const [status, setStatus] = useState<Availability>({ state: 'checking' });

  useEffect(() => {
    let cancelled = false;
    void availability().then((found) => {
      if (!cancelled) setStatus(found);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (status.state !== 'ready') return;
    const config = JSON.parse(document.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? 'null') as CmsConfig | null;
    if (!config) return;
    // Once started, Decap stays: it owns #nc-root from here on.
    void import('./decap-cms').then(({ startDecap }) => startDecap(config, { email }, toSignIn));
  }, [status.state, email]);

  return (
    <>
      <PageHeader title={L.title} intro={status.state === 'ready' ? (status.store === 'github' ? L.publishesByCommit : L.publishesLocally) : undefined} />
      {status.state === 'unavailable' && (
        <p role="alert" className="max-w-2xl rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900">
          {status.message}
        </p>
      )}
      {status.state === 'ready' && <PublishStatusBar />}
      {status.state === 'checking' && (
        <p role="status" className="text-slate-600">
          {labels.loading}
        </p>
      )}
      {/* Decap CMS renders here; its editor fills this box, which scrolls on its own. */}
      <div id="nc-root" className={status.state === 'ready' ? 'relative h-[calc(100dvh-10rem)] min-h-[30rem] w-full overflow-auto rounded-md border border-slate-200' : 'hidden'} />
    </>
  );
}
