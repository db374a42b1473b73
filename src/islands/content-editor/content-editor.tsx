/**
 * /admin/inhalte: the content editor. The back office's own session guard
 * first (signed out → /auth, then back here), then the editor's backend is
 * asked whether it can save (production without the Git settings: 503
 * not-configured, shown as such, and the editor is not loaded); only then
 * is Decap CMS loaded, into #nc-root below a slim back-office bar.
 */
import { useEffect, useState } from 'react';
import { authApi, setFlash, signInPath } from '../auth/auth-client';
import { useAdminSession } from '../admin/use-admin-session';
import { labels } from '../admin/labels';
import type { CmsConfig } from './cms-config';
import { CONTENT_API } from './praxis-backend';

const L = labels.contentEditor;
type Availability = { state: 'checking' } | { state: 'ready'; store: 'local' | 'github' } | { state: 'unavailable'; message: string };

const navigate = (path: string) => window.location.replace(path);
const toSignIn = () => navigate(signInPath(window.location.pathname));

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

export default function ContentEditor({ config }: { config: CmsConfig }) {
  const session = useAdminSession(navigate);
  const [status, setStatus] = useState<Availability>({ state: 'checking' });
  const email = session.status === 'admin' ? session.session.user.email : null;

  useEffect(() => {
    if (!email) return;
    let cancelled = false;
    void availability().then(async (found) => {
      if (cancelled) return;
      setStatus(found);
      if (found.state !== 'ready') return;
      const { startDecap } = await import('./decap-cms');
      if (!cancelled) startDecap(config, { email }, toSignIn);
    });
    return () => {
      cancelled = true;
    };
  }, [email, config]);

  async function signOut() {
    await authApi.logout().catch(() => undefined);
    setFlash({ title: labels.layout.signedOut });
    window.location.assign('/auth');
  }

  return (
    <>
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 text-sm">
        <a href="/admin" className="font-medium text-brand-700 underline">
          {L.back}
        </a>
        <h1 className="flex-1 font-semibold text-slate-900">{L.title}</h1>
        {status.state === 'ready' && <p className="text-slate-600">{status.store === 'github' ? L.publishesByCommit : L.publishesLocally}</p>}
        {email && (
          <>
            <p className="text-slate-600">
              <span className="sr-only">{labels.layout.signedInAs} </span>
              {email}
            </p>
            <button type="button" onClick={() => void signOut()} className="rounded-md bg-brand-700 px-3 py-1 font-semibold text-white hover:bg-brand-800">
              {labels.layout.signOut}
            </button>
          </>
        )}
      </header>
      {status.state === 'unavailable' ? (
        <main className="mx-auto max-w-xl p-6">
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900">
            {status.message}
          </p>
        </main>
      ) : (
        status.state === 'checking' && (
          <p role="status" className="p-6 text-slate-600">
            {labels.loading}
          </p>
        )
      )}
      {/* Decap CMS renders here; its editor fills the rest of the window. */}
      <div id="nc-root" className="relative flex-1" />
    </>
  );
}
