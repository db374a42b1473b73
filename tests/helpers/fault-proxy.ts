/**
 * A TCP proxy in front of a real Postgres that can make the database look
 * frozen (connections accepted, no byte forwarded: a hung server or a
 * black-holed network), down (every connection dropped, new ones refused),
 * or healthy again. Used to prove timeouts and 503 database-unavailable.
 */
import net from 'node:net';

export interface FaultProxy {
  port: number;
  /** Stops forwarding: open and new connections hang. */
  freeze(): void;
  /** Drops every connection and refuses new ones (ECONNREFUSED). */
  down(): Promise<void>;
  /** Forwards again (new connections; frozen ones are dropped). */
  heal(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: 'pass' | 'freeze' = 'pass';
  const sockets = new Set<net.Socket>();
  let port = 0;

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'freeze') {
      client.pause();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk) => {
      if (mode === 'pass') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (mode === 'pass') client.write(chunk);
    });
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const dropAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const stop = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  await listen();
  return {
    get port() {
      return port;
    },
    freeze() {
      mode = 'freeze';
    },
    async down() {
      mode = 'pass';
      const closing = stop();
      dropAll();
      await closing;
    },
    async heal() {
      dropAll();
      mode = 'pass';
      if (!server.listening) await listen();
    },
    async close() {
      const closing = stop();
      dropAll();
      await closing;
    },
  };
}
