/**
 * Tells whoever publishes the site that the content editor saved files.
 * In production nobody listens here: the commit itself starts Netlify's
 * build. The local server (scripts/serve.ts) listens and rebuilds the
 * static pages. Kept on globalThis like the local origins, so the copy of
 * this module a function loads and the server's copy share the listeners.
 */
const LISTENERS = Symbol.for('praxis.contentSaved');

type Listener = (paths: string[]) => void;

function listeners(): Set<Listener> {
  const store = globalThis as { [LISTENERS]?: Set<Listener> };
  return (store[LISTENERS] ??= new Set());
}

/** Registers a listener; returns its removal. */
export function onContentSaved(listener: Listener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function contentSaved(paths: string[]): void {
  for (const listener of listeners()) listener(paths);
}

/**
 * The state of the local publication (the rebuild after a save), as
 * GET /api/admin/content/status reports it: written by the local server's
 * rebuild (scripts/content-rebuild.ts), read by the function; shared on
 * globalThis like the listeners.
 */
export type PublishState = 'idle' | 'queued' | 'running' | 'live' | 'failed';

export interface PublishStatus {
  state: PublishState;
  /** ISO time the state began. */
  since: string;
  /** Why a build failed: the file and field, when the build named them. */
  detail?: string;
}

const STATUS = Symbol.for('praxis.contentPublishStatus');

export function localPublishStatus(): PublishStatus {
  const store = globalThis as { [STATUS]?: PublishStatus };
  return (store[STATUS] ??= { state: 'idle', since: new Date().toISOString() });
}

export function setLocalPublishStatus(state: PublishState, detail?: string): void {
  (globalThis as { [STATUS]?: PublishStatus })[STATUS] = { state, since: new Date().toISOString(), ...(detail ? { detail } : {}) };
}
