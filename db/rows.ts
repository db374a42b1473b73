/** What a raw statement (`db.execute`) answers, read the same way from every driver. */

/** The rows of a raw statement's result. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** JSON from the driver: node-postgres and PGlite parse it, a string is parsed here. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
