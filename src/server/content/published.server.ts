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
