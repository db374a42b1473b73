/**
 * /admin/inhalte, the content editor, as a page of the back office (its
 * shell has already checked the staff session: signed out → /auth, then
 * back here). The editor's backend is asked first whether it can save
 * (production without the Git settings: 503 not-configured, shown as such,
 * and the editor is not loaded); then Decap CMS is loaded into #nc-root.
 * Decap needs a window at least 800 px wide: a phone gets an explanation
 * instead of a form it cannot use.
 */
import { useEffect, useState } from 'react';
import { signInPath } from '../auth/auth-client';
import { labels } from '../admin/labels';
import { PageHeader } from '../admin/ui';
import { CONTENT_API } from '../../lib/content-files';
import type { CmsConfig } from './cms-config';

const L = labels.contentEditor;
/** Decap's editor sets this as its min-width. */
const WIDE_ENOUGH = '(min-width: 800px)';
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

function useWideEnough(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE_ENOUGH).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE_ENOUGH);
    const update = () => setWide(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return wide;
}

export function ContentEditor({ email }: { email: string }) {
  const wide = useWideEnough();
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
    if (status.state !== 'ready' || !wide) return;
    const config = JSON.parse(document.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? 'null') as CmsConfig | null;
    if (!config) return;
    // Once started, Decap stays: it owns #nc-root from here on.
    void import('./decap-cms').then(({ startDecap }) => startDecap(config, { email }, toSignIn));
  }, [status.state, wide, email]);

  return (
    <>
      <PageHeader title={L.title} intro={status.state === 'ready' ? (status.store === 'github' ? L.publishesByCommit : L.publishesLocally) : undefined} />
      {status.state === 'unavailable' && (
        <p role="alert" className="max-w-2xl rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900">
          {status.message}
        </p>
      )}
      {status.state === 'ready' && !wide && <p className="max-w-2xl rounded-md border border-slate-300 bg-slate-50 p-4 text-slate-800">{L.tooNarrow}</p>}
      {status.state === 'checking' && (
        <p role="status" className="text-slate-600">
          {labels.loading}
        </p>
      )}
      {/* Decap CMS renders here; its editor fills this box, which scrolls on its own. */}
      <div id="nc-root" className={status.state === 'ready' && wide ? 'relative h-[calc(100dvh-12rem)] min-h-[30rem] overflow-auto rounded-md border border-slate-200' : 'hidden'} />
    </>
  );
}
