/**
 * A module loaded on demand and kept once here, so a step can be rendered
 * synchronously as soon as it is loaded (no Suspense fallback, no lost focus).
 */
export interface OnDemand<T> {
  /** The module if it has arrived. */
  get(): T | undefined;
  /** Starts loading (once); a failed load may be retried. */
  load(): Promise<T>;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    get: () => value,
    load: () =>
      (pending ??= load().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
  };
}

const RELOAD_KEY = 'stepChunkReloadAt';
const RELOAD_GUARD_MS = 60_000;

/**
 * After a deploy the new service worker takes over at once and drops the old
 * precache, and the host no longer has the old chunks: an open page then
 * fails to load a step. Reloading gets the new page. Only when online, and
 * at most once a minute, so a truly broken chunk cannot loop.
 */
export function shouldReloadForMissingChunk(online: boolean, lastReloadAt: number | null, now: number): boolean {
  return online && (lastReloadAt === null || now - lastReloadAt >= RELOAD_GUARD_MS || lastReloadAt > now);
}

/** Reloads the page if a step's chunk is missing after a deploy; false if it did not. */
export function reloadForMissingChunk(): boolean {
  let last: number | null = null;
  try {
    const raw = sessionStorage.getItem(RELOAD_KEY);
    last = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  } catch {
    return false; // without storage no guard against a loop: do not reload
  }
  const now = Date.now();
  if (!shouldReloadForMissingChunk(navigator.onLine, last, now)) return false;
  sessionStorage.setItem(RELOAD_KEY, String(now));
  window.location.reload();
  return true;
}
