import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import type { PriceUpdate, WsServerMessage } from '@florin/contracts';
import { createPriceHub, type PriceFeed, type PriceHubOptions } from './hub.js';
import { registerRealtimeRoutes } from './routes.js';

/** A feed the test drives by hand: emit() is one tick. */
export function createManualFeed(initial: PriceUpdate[] = []) {
  const latest = new Map(initial.map((update) => [update.symbol, update]));
  const listeners = new Set<(updates: PriceUpdate[]) => void>();
  return {
    subscribe(listener: (updates: PriceUpdate[]) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    latest(symbol?: string) {
      if (symbol === undefined) return [...latest.values()];
      const update = latest.get(symbol);
      return update ? [update] : [];
    },
    emit(updates: PriceUpdate[]) {
      for (const update of updates) latest.set(update.symbol, update);
      for (const listener of [...listeners]) listener(updates);
    },
  } satisfies PriceFeed & { emit(updates: PriceUpdate[]): void };
}

export function priceUpdate(symbol: string, mid: string, at = new Date().toISOString()): PriceUpdate {
  return { symbol, mid, bid: mid, ask: mid, at, stale: false };
}

export type RealtimeServer = { app: FastifyInstance; url: string; close(): Promise<void> };

/** The realtime module alone on a loopback port (ws needs a real socket: bufferedAmount, close codes). */
export async function startRealtimeServer(
  feed: PriceFeed,
  options: PriceHubOptions & { maxConnectionsPerIp?: number; allowedOrigin?: string | null } = {},
): Promise<RealtimeServer> {
  const app = Fastify({ logger: false });
  await app.register(fastifyCookie);
  await registerRealtimeRoutes(app, {
    hub: createPriceHub(feed, options),
    sessions: { find: () => Promise.resolve(null) },
    allowedOrigin: options.allowedOrigin ?? null,
    maxConnectionsPerIp: options.maxConnectionsPerIp ?? 100,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${address.replace('http', 'ws')}/ws`, close: () => app.close() };
}

/** A ws client that keeps every message it receives, and waits for the ones a test expects. */
export async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const received: WsServerMessage[] = [];
  const waiters: {
    predicate: (message: WsServerMessage) => boolean;
    resolve: (m: WsServerMessage) => void;
  }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse((data as Buffer).toString('utf8')) as WsServerMessage;
    received.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    /** The next message (from now on, or already received after `since`) matching the predicate. */
    next<T extends WsServerMessage['type']>(
      type: T,
      timeoutMs = 5_000,
    ): Promise<Extract<WsServerMessage, { type: T }>> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${type} message within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          predicate: (message) => message.type === type,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message as Extract<WsServerMessage, { type: T }>);
          },
        });
      });
    },
    close: () => socket.close(),
  };
}
