/**
 * A local WebSocket-to-TCP proxy speaking the protocol of Neon's wsproxy
 * (`/v2?address=host:port`, binary frames both ways), so the Neon serverless
 * driver can reach a plain Postgres from a test that sets neonConfig.wsProxy
 * to it (tests/integration/database-faults.test.ts).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface NeonWsProxy {
  /** `127.0.0.1:<port>`, for neonConfig.wsProxy. */
  address: string;
  /** Open WebSocket connections (one per Postgres connection). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Relays one WebSocket to a TCP connection: binary frames both ways, either
 * side's end ends the other. `onFirstFrame` sees the client's first frame.
 */
export function relayToTcp(ws: WebSocket, host: string, port: number, onFirstFrame?: (chunk: Buffer) => void): void {
  const socket = net.connect(port, host);
  const pending: Buffer[] = [];
  let connected = false;
  let first = true;
  socket.on('connect', () => {
    connected = true;
    for (const chunk of pending.splice(0)) socket.write(chunk);
  });
  socket.on('data', (chunk) => ws.readyState === ws.OPEN && ws.send(chunk));
  socket.on('error', () => ws.terminate());
  socket.on('close', () => ws.close());
  ws.on('message', (data) => {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    if (first) onFirstFrame?.(chunk);
    first = false;
    if (connected) socket.write(chunk);
    else pending.push(chunk);
  });
  ws.on('close', () => socket.destroy());
  ws.on('error', () => socket.destroy());
}

export async function startNeonWsProxy(): Promise<NeonWsProxy> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const open = new Set<WebSocket>();
  wss.on('connection', (ws, req) => {
    const target = new URL(req.url ?? '/', 'http://proxy').searchParams.get('address') ?? '';
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    if (!host || !port) {
      ws.close(1008, 'address required');
      return;
    }
    open.add(ws);
    relayToTcp(ws, host, port);
    ws.on('close', () => open.delete(ws));
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    connections: () => open.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of open) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}
