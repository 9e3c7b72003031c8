/**
 * The server side of the fan-out benchmark, in its own process (so it has a
 * core of its own, as in production): either Florin's realtime module on
 * Fastify, or a bare `ws` server broadcasting the same payload. The parent
 * says when to tick over IPC and measures delivery on its own clock.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PriceUpdate } from '@florin/contracts';
import { createPriceHub } from '../../apps/server/src/modules/realtime/hub.js';
import { registerRealtimeRoutes } from '../../apps/server/src/modules/realtime/routes.js';

import { SYMBOL, type ChildMessage, type ParentMessage, type ServerKind } from './protocol.js';

/** The tick number travels in the price, so the client knows which tick each message is. */
function update(seq: number): PriceUpdate {
  const mid = `${50_000 + seq}.12345678`;
  return { symbol: SYMBOL, mid, bid: mid, ask: mid, at: new Date().toISOString(), stale: false };
}

const listeners = new Set<(updates: PriceUpdate[]) => void>();
let latest = update(0);
const feed = {
  subscribe(listener: (updates: PriceUpdate[]) => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  latest: (symbol?: string) => (symbol === undefined || symbol === SYMBOL ? [latest] : []),
};

async function startFlorin(): Promise<{
  url: string;
  tick: (seq: number) => void;
  stop: () => Promise<void>;
}> {
  const app = Fastify({ logger: false });
  await app.register(fastifyCookie);
  await registerRealtimeRoutes(app, {
    hub: createPriceHub(feed),
    sessions: { find: () => Promise.resolve(null) },
    allowedOrigin: null,
    maxConnectionsPerIp: 10_000,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address.replace('http', 'ws')}/ws`,
    tick(seq) {
      latest = update(seq);
      for (const listener of listeners) listener([latest]);
    },
    stop: () => app.close(),
  };
}

/** The baseline: what `ws` alone does, the same message serialised once and written to every subscriber. */
async function startBare(): Promise<{ url: string; tick: (seq: number) => void; stop: () => Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const subscribers = new Set<WebSocket>();
  server.on('connection', (socket) => {
    socket.on('message', () => {
      subscribers.add(socket);
      socket.send(JSON.stringify({ type: 'subscribed', channel: 'prices', symbols: [SYMBOL] }));
      socket.send(JSON.stringify({ type: 'price', data: latest }));
    });
    socket.on('close', () => subscribers.delete(socket));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    tick(seq) {
      latest = update(seq);
      const frame = Buffer.from(JSON.stringify({ type: 'price', data: latest }));
      for (const socket of subscribers) socket.send(frame, { binary: false });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const kind = process.argv[2] as ServerKind;
const server = kind === 'bare' ? await startBare() : await startFlorin();
process.on('message', (message: ParentMessage) => {
  if (message.type === 'tick') server.tick(message.seq);
  else void server.stop().then(() => process.exit(0));
});
process.send?.({ type: 'listening', url: server.url } satisfies ChildMessage);
