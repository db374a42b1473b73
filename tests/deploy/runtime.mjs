/**
 * A stand-in for Netlify's function hosting, run under Node 22: routes a
 * request to the function whose manifest routes match (as zip-it-and-ship-it
 * wrote them, excluded routes honoured), and invokes that function's
 * unzipped bundle in a warm instance (tests/deploy/instance.mjs). Instances
 * are named by the caller, so a test can use one warm instance or many
 * separate ones, each with its own environment.
 *
 * Usage: node runtime.mjs <unzipped bundles dir> <manifest.json> [hosts JSON];
 * prints the control port. POST /invoke {instance, env, method, path, headers, body, deploy}
 * → {function, status, headers, body}; GET /instances → names and whether alive.
 */
import http from 'node:http';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { lambdaEvent } from './lambda.mjs';

const [bundles, manifestPath, hostsJson] = process.argv.slice(2);
/** The stand-ins' host names → their loopback address (tests/deploy/network.mjs). */
const hosts = hostsJson ? JSON.parse(hostsJson) : null;
const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
const here = path.dirname(new URL(import.meta.url).pathname);

function matches(route, pathname) {
  if (route.literal !== undefined) return route.literal === pathname || `${route.literal}/` === pathname;
  return new RegExp(route.expression).test(pathname);
}

function route(pathname) {
  const found = manifest.functions.filter(
    (f) => (f.routes ?? []).some((r) => matches(r, pathname)) && !(f.excludedRoutes ?? []).some((r) => matches(r, pathname)),
  );
  if (found.length > 1) throw new Error(`ambiguous route ${pathname}: ${found.map((f) => f.name).join(', ')}`);
  return found[0];
}

const instances = new Map();

function instance(name, fn, env) {
  const key = `${fn.name}#${name}`;
  let entry = instances.get(key);
  if (entry && entry.alive) return entry;
  const full = { ...process.env };
  for (const [k, v] of Object.entries(env ?? {})) {
    if (v === null) delete full[k];
    else full[k] = v;
  }
  const worker = new Worker(path.join(here, 'instance.mjs'), {
    workerData: { entry: path.join(bundles, fn.name, '___netlify-entry-point.mjs'), hosts },
    env: full,
  });
  entry = { worker, alive: true, pending: new Map(), next: 0, died: null, logs: [] };
  const ready = new Promise((resolve, reject) => {
    worker.once('message', (m) => (m.ready ? resolve() : reject(new Error('instance did not start'))));
    worker.once('error', reject);
  });
  entry.ready = ready;
  const e = entry;
  worker.on('message', (m) => {
    if (m.id === undefined) return;
    const waiter = e.pending.get(m.id);
    e.pending.delete(m.id);
    waiter?.(m);
  });
  const die = (reason) => {
    e.alive = false;
    e.died = String(reason?.stack ?? reason);
    for (const waiter of e.pending.values()) waiter({ error: `instance died: ${e.died}` });
    e.pending.clear();
  };
  worker.on('error', die);
  worker.on('exit', (code) => e.alive && die(`exit ${code}`));
  instances.set(key, entry);
  return entry;
}

async function invoke({ instance: name = 'default', env, method = 'GET', path: p, headers = {}, body, deploy, scheduled }) {
  const url = new URL(p, 'https://praxis.example');
  // Netlify's scheduler invokes a scheduled function by name, not by path.
  const fn = scheduled ? manifest.functions.find((f) => f.name === scheduled && f.schedule) : route(url.pathname);
  if (!fn) return { function: null, status: 404, headers: {}, body: 'static 404' };
  const entry = instance(name, fn, env);
  await entry.ready;
  const id = entry.next++;
  const event = lambdaEvent({
    url,
    method,
    headers,
    body,
    route: fn.routes?.find((r) => matches(r, url.pathname))?.pattern,
    functionName: fn.name,
    deploy,
  });
  const result = await new Promise((resolve) => {
    entry.pending.set(id, resolve);
    entry.worker.postMessage({ id, event });
  });
  if (result.error) return { function: fn.name, status: 599, headers: {}, body: result.error };
  return { function: fn.name, ...result.response };
}

const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    let out;
    if (req.url === '/invoke') out = await invoke(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    else if (req.url === '/instances') out = [...instances].map(([k, v]) => ({ name: k, alive: v.alive, died: v.died }));
    else throw new Error(`unknown control path ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  } catch (error) {
    res.writeHead(500).end(String(error?.stack ?? error));
  }
});
server.listen(0, '127.0.0.1', () => console.log(`runtime listening on ${server.address().port}`));
