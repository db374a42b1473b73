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
