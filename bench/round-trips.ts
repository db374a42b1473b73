/**
 * What the benchmarks share: database round trips counted on the driver
 * (every node-postgres Client#query is one: it sends one query and waits
 * for its answer; connecting is not counted) and the figures they print.
 */
import pg from 'pg';

let count = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  count++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof originalQuery;

/** Round trips so far in this process; take the difference around what is measured. */
export const roundTrips = () => count;

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

export const ms = (v: number) => `${v.toFixed(2)} ms`;
