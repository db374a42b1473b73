/**
 * Database round trips counted on the driver: every node-postgres
 * Client#query sends one query and waits for its answer (connecting is not
 * counted). For the real-Postgres tests; vi.restoreAllMocks() stops it.
 */
import pg from 'pg';
import { vi } from 'vitest';

export function countRoundTrips(): { readonly count: number; reset(): void } {
  let count = 0;
  const original = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  return {
    get count() {
      return count;
    },
    reset: () => {
      count = 0;
    },
  };
}
