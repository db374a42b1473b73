/**
 * Decap CMS's backend for this site (registered as "praxis"): the proxy
 * backend's protocol (`POST { action, params }`) against
 * /api/admin/content, signed in with the back office's own session cookie,
 * plus what the protocol lacks:
 * - versions: every file read carries its Git blob SHA (`file.id`); a save
 *   names, per file, the version the editor started from, so the server
 *   refuses (409) a save over a colleague's;
 * - pages as folders: each page is a one-entry folder collection under
 *   a folder that exists only in the editor (virtual-paths.ts), mapped
 *   here to the real files.
 * Errors carry the server's German explanation, which Decap shows as is.
 */
import { useEffect } from 'react';
import { authApi } from '../auth/auth-client';
import { CONTENT_API, CONTENT_LANGUAGES } from '../../lib/content-files';
import { pageOfFolder, realPath, virtualPath } from './virtual-paths';

/** Sent on window after every successful save: the editor page then shows the publication's state. */
export const CONTENT_SAVED_EVENT = 'praxis:content-saved';

export interface EditorUser {
  email: string;
}

interface Entry {
  data: string | null;
  file: { path: string; label?: string; id: string | null };
}

/** Thrown for an answer that is not 2xx; `message` is the server's German `detail`. */
export class ContentApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ContentApiError';
  }
}

/** What the backend does when the session is gone (the editor page sends the browser to sign in). */
let onSignedOut: () => void = () => undefined;
let currentUser: EditorUser | null = null;

export function connectEditor(user: EditorUser, signedOut: () => void): void {
  currentUser = user;
  onSignedOut = signedOut;
}

export async function contentRequest<T>(action: string, params: Record<string, unknown>): Promise<T> {
  const res = await fetch(CONTENT_API, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ action, params }),
  });
  const body = (await res.json().catch(() => null)) as { detail?: string; title?: string } | null;
  if (res.status === 401) onSignedOut();
  if (!res.ok) throw new ContentApiError(res.status, body?.detail ?? body?.title ?? `HTTP ${res.status}`);
  return body as T;
}

export default class PraxisBackend {
  /** The version each file was read at, by real path: what a save is based on. */
  private readonly versions = new Map<string, string>();

  constructor(_config?: unknown, _options?: unknown) {}

  isGitBackend() {
    return false;
  }

  status() {
    return Promise.resolve({ auth: { status: true }, api: { status: true, statusPage: '' } });
  }

  authComponent() {
    return AutoSignIn;
  }

  private user() {
    // Decap's user: the staff member signed in to the back office.
    const email = currentUser?.email ?? '';
    return { name: email, login: email, email, token: '' };
  }

  restoreUser() {
    return Promise.resolve(this.user());
  }

  authenticate() {
    return Promise.resolve(this.user());
  }

  /** Decap's own "Abmelden" ends the back-office session, like the page's button. */
  async logout() {
    await authApi.logout().catch(() => undefined);
    window.location.assign('/auth');
  }

  getToken() {
    return Promise.resolve('');
  }

  private remember(entry: Entry): Entry {
    if (entry.file.id) this.versions.set(entry.file.path, entry.file.id);
    return entry;
  }

  async entriesByFiles(files: Array<{ path: string; label?: string }>) {
    const entries = await contentRequest<Entry[]>('entriesByFiles', { files: files.map((f) => ({ path: realPath(f.path), label: f.label })) });
    return entries.map((e, i) => ({ ...this.remember(e), file: { ...e.file, path: files[i]!.path } }));
  }

  async entriesByFolder(folder: string) {
    const page = pageOfFolder(folder);
    if (!page) return [];
    const files = CONTENT_LANGUAGES.map((lang) => ({ path: virtualPath(page, lang) }));
    return (await this.entriesByFiles(files)).filter((e) => e.data !== null);
  }

  async getEntry(path: string) {
    const entry = this.remember(await contentRequest<Entry>('getEntry', { path: realPath(path) }));
    return { ...entry, file: { ...entry.file, path } };
  }

  async persistEntry(entry: { dataFiles: Array<{ path: string; raw: string; slug?: string; newPath?: string }>; assets: unknown[] }) {
    const dataFiles = entry.dataFiles.map((f) => {
      const path = realPath(f.path);
      return { path, raw: f.raw, slug: f.slug, sha: this.versions.get(path) ?? '', ...(f.newPath ? { newPath: realPath(f.newPath) } : {}) };
    });
    const result = await contentRequest<{ files: Array<{ path: string; id: string }> }>('persistEntry', { dataFiles, assets: entry.assets.length ? ['upload'] : [] });
    for (const f of result.files) this.versions.set(f.path, f.id);
    if (typeof window !== 'undefined') window.dispatchEvent(new Event(CONTENT_SAVED_EVENT));
  }

  async getMedia() {
    return [];
  }

  getMediaFile(): Promise<never> {
    return Promise.reject(new Error('Der Inhalte-Editor hat keine Mediathek.'));
  }

  persistMedia(): Promise<never> {
    return Promise.reject(new Error('Bilder können im Inhalte-Editor nicht hochgeladen werden.'));
  }

  deleteFiles(): Promise<never> {
    return Promise.reject(new Error('Seiten können im Inhalte-Editor nicht gelöscht werden.'));
  }

  unpublishedEntries() {
    return Promise.resolve([]);
  }

  getDeployPreview() {
    return Promise.resolve(null);
  }
}

/**
 * Decap shows its backend's sign-in page when it knows no user; ours has
 * none to show: the staff session is already checked, so it signs in at once.
 */
function AutoSignIn({ onLogin }: { onLogin: (state: unknown) => void }) {
  useEffect(() => onLogin({}), [onLogin]);
  return null;
}
