/**
 * The deploy test's outside world, on a loopback address of its own at
 * port 443, under a local certificate authority:
 *
 * - Neon's proxy: `wss://<endpoint host>/v2`, the Postgres protocol in
 *   binary WebSocket frames, routed by host name like Neon routes by
 *   endpoint (the pooled `-pooler` host → PgBouncer in transaction mode, the
 *   direct host → a session of its own). The driver runs in its production
 *   configuration: TLS WebSocket, default wsProxy, pipelined password login.
 * - Postmark's API (`https://api.postmarkapp.com/email`): accepts a message
 *   and answers as Postmark does; the test sees who got mail and the
 *   subject, never a body.
 * - Netlify's cache purge API (`https://api.netlify.com/api/v1/purge`, what
 *   `purgeCache` of @netlify/functions calls): records the tags, the site
 *   and whether the bearer token was the one the functions were given.
 *
 * Function processes resolve those host names to this address
 * (tests/deploy/network.mjs, loaded by the harness, never by a bundle) and
 * trust the CA through NODE_EXTRA_CA_CERTS.
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import { WebSocketServer, type WebSocket } from 'ws';
import { relayToTcp } from '../helpers/neon-ws-proxy';

const run = promisify(execFile);

export const NEON_REGION_DOMAIN = 'eu-central-1.aws.neon.tech';
export const POSTMARK_HOST = 'api.postmarkapp.com';
export const NETLIFY_API_HOST = 'api.netlify.com';
/** The token the functions are given as NETLIFY_PURGE_API_TOKEN (Netlify sets it in every function). */
export const PURGE_TOKEN = 'purge-token-of-the-deploy-test';

/** A call of the purge API as the stand-in saw it. */
export interface Purge {
  tags: string[];
  site: string | undefined;
  authorised: boolean;
}

export interface SentMail {
  to: string;
  subject: string;
}

/** A database connection as the stand-in saw it open. */
export interface OpenedConnection {
  host: string;
  /** The first frame held the startup message and the password: a pipelined login. */
  pipelined: boolean;
}

export interface StandIns {
  /** The loopback address every stand-in host name resolves to. */
  address: string;
  /** PEM file of the local certificate authority (for NODE_EXTRA_CA_CERTS). */
  caFile: string;
  /** Host name → address, for the function processes' name resolution. */
  hosts: Record<string, string>;
  mail: SentMail[];
  purges: Purge[];
  opened: OpenedConnection[];
  /** Open WebSocket (database) connections. */
  connections(): number;
  /** Closes every open database WebSocket, as Neon's proxy does when it drops a connection. */
  dropConnections(): void;
  close(): Promise<void>;
}

async function makeCertificates(dir: string): Promise<{ ca: string; key: string; cert: string }> {
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Praxis deploy test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=deploy test stand-ins']);
  await writeFile(
    file('leaf.ext'),
    `subjectAltName=DNS:*.${NEON_REGION_DOMAIN},DNS:${POSTMARK_HOST},DNS:${NETLIFY_API_HOST}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  await run('openssl', ['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('leaf.pem'), '-days', '2', '-extfile', file('leaf.ext')]);
  return { ca: file('ca.pem'), key: await readFile(file('leaf.key'), 'utf8'), cert: await readFile(file('leaf.pem'), 'utf8') };
}

/**
 * `routes`: Neon endpoint host name → the local TCP port that plays it.
 * `postmarkToken`: the server token Postmark's stand-in accepts.
 */
export async function startStandIns(dir: string, routes: Record<string, () => number>, postmarkToken: string): Promise<StandIns> {
  const { ca, key, cert } = await makeCertificates(dir);
  const mail: SentMail[] = [];
  const purges: Purge[] = [];
  const open = new Set<WebSocket>();
  const opened: OpenedConnection[] = [];

  const server = https.createServer({ key, cert }, (req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    if (host === NETLIFY_API_HOST && req.method === 'POST' && req.url === '/api/v1/purge') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const payload = JSON.parse(body) as { cache_tags?: string[]; site_id?: string };
        const authorised = req.headers.authorization === `Bearer ${PURGE_TOKEN}`;
        purges.push({ tags: payload.cache_tags ?? [], site: payload.site_id, authorised });
        res.writeHead(authorised ? 202 : 401).end();
      });
      return;
    }
    if (host !== POSTMARK_HOST || req.method !== 'POST' || req.url !== '/email') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const message = JSON.parse(body) as { To: string; Subject: string };
      const authorised = req.headers['x-postmark-server-token'] === postmarkToken;
      if (!authorised) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ ErrorCode: 10, Message: 'Bad or missing server token' }));
        return;
      }
      mail.push({ to: message.To, subject: message.Subject });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ To: message.To, SubmittedAt: new Date().toISOString(), MessageID: `stand-in-${mail.length}`, ErrorCode: 0, Message: 'OK' }),
      );
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const port = routes[host]?.();
    if (!port || !req.url?.startsWith('/v2')) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => relay(ws, host, port));
  });

  /** Startup message (length-prefixed, no type byte), then a PasswordMessage ('p') in the same frame. */
  function startsWithPipelinedLogin(chunk: Buffer): boolean {
    if (chunk.length < 8) return false;
    const startupLength = chunk.readInt32BE(0);
    return chunk.readInt32BE(4) === 196608 && chunk.length > startupLength && chunk[startupLength] === 0x70;
  }

  function relay(ws: WebSocket, host: string, port: number) {
    open.add(ws);
    ws.on('close', () => open.delete(ws));
    relayToTcp(ws, '127.0.0.1', port, (chunk) => opened.push({ host, pipelined: startsWithPipelinedLogin(chunk) }));
  }

  // A loopback address of this run's own (127.0.0.0/8 is all loopback), so
  // parallel runs never compete for port 443.
  let address = '';
  for (let attempt = 0; ; attempt++) {
    address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(443, address, () => {
          server.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') {
        throw new Error('the Neon and Postmark stand-ins listen on port 443 of a loopback address: run as root (as CI does) or grant CAP_NET_BIND_SERVICE');
      }
      if (attempt > 5) throw error;
    }
  }

  const hosts: Record<string, string> = { [POSTMARK_HOST]: address, [NETLIFY_API_HOST]: address };
  for (const host of Object.keys(routes)) hosts[host] = address;
  return {
    address,
    caFile: ca,
    hosts,
    mail,
    purges,
    opened,
    connections: () => open.size,
    dropConnections() {
      for (const ws of open) ws.terminate();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of open) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
