import type { WebSocket } from 'ws';
import {
  WsClientMessageSchema,
  type PriceUpdate,
  type UserEvent,
  type WsServerMessage,
} from '@florin/contracts';

/**
 * What the hub streams from: the market module's feed (M1's MarketFeed has
 * this shape) or, with several instances, the cluster feed in relay.ts.
 */
export type PriceFeed = {
  subscribe(listener: (updates: PriceUpdate[]) => void): () => void;
  latest(symbol?: string): PriceUpdate[];
};

/** Close code for a client whose unsent data passed the limit: it should reconnect (and resubscribe). */
export const WS_CLOSE_TOO_SLOW = 4008;
export const WS_CLOSE_TOO_SLOW_REASON = 'Too slow: fell behind the price stream';

export type PriceHubOptions = {
  /** Every 15 s by default: a heartbeat message, and a ws ping whose missing pong ends the connection. */
  heartbeatMs?: number;
  /** Unsent bytes (ws bufferedAmount) a client may hold before it is dropped; 1 MiB by default. */
  maxBufferedBytes?: number;
  /** How long a dropped client's close handshake may take before its socket is destroyed. */
  closeGraceMs?: number;
};

type Client = {
  socket: WebSocket;
  symbols: Set<string>;
  /** The customer whose session cookie came with the upgrade: their events come here. */
  userId: string | null;
  answeredPing: boolean;
  dropped: boolean;
};

export type PriceHub = {
  /** Takes over a just-upgraded socket until it closes. */
  accept(socket: WebSocket): { identify(userId: string): void };
  /** Tells every connection of this customer on this instance. */
  notifyUser(userId: string, event: UserEvent): void;
  readonly connectionCount: number;
  close(): void;
};

function encode(message: WsServerMessage): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/**
 * Fan-out of price ticks to websocket clients. Each update of a tick is
 * serialised once and the same buffer is written to every subscriber of its
 * symbol, so the cost per extra client is one socket write. A client whose
 * unsent data grows past the limit is dropped instead of buffering without
 * bound (or making the tick wait for it).
 */
export function createPriceHub(feed: PriceFeed, options: PriceHubOptions = {}): PriceHub {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const closeGraceMs = options.closeGraceMs ?? 5_000;
  const clients = new Set<Client>();
  const subscribersBySymbol = new Map<string, Set<Client>>();
  const clientsByUser = new Map<string, Set<Client>>();

  function send(client: Client, frame: Buffer): void {
    if (client.dropped || client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(frame, { binary: false });
    if (client.socket.bufferedAmount > maxBufferedBytes) drop(client);
  }

  function forget(client: Client): void {
    clients.delete(client);
    if (client.userId !== null) {
      const own = clientsByUser.get(client.userId);
      own?.delete(client);
      if (own?.size === 0) clientsByUser.delete(client.userId);
    }
    for (const symbol of client.symbols) {
      const subscribers = subscribersBySymbol.get(symbol);
      subscribers?.delete(client);
      if (subscribers?.size === 0) subscribersBySymbol.delete(symbol);
    }
    client.symbols.clear();
  }

  function drop(client: Client): void {
    client.dropped = true;
    forget(client);
    // The close frame queues behind the unsent data; a client that never reads it is destroyed.
    client.socket.close(WS_CLOSE_TOO_SLOW, WS_CLOSE_TOO_SLOW_REASON);
    setTimeout(() => client.socket.terminate(), closeGraceMs).unref();
  }

  const unsubscribeFeed = feed.subscribe((updates) => {
    for (const update of updates) {
      const subscribers = subscribersBySymbol.get(update.symbol);
      if (!subscribers || subscribers.size === 0) continue;
      const frame = encode({ type: 'price', data: update });
      // No copy of the set: a client dropped mid-loop is deleted from it, which a Set's iterator allows.
      for (const client of subscribers) send(client, frame);
    }
  });

  const heartbeat = setInterval(() => {
    const frame = encode({ type: 'heartbeat', at: new Date().toISOString() });
    for (const client of [...clients]) {
      // No pong since the last beat: the peer is gone without a close (sleeping laptop, dead NAT).
      if (!client.answeredPing) {
        forget(client);
        client.socket.terminate();
        continue;
      }
      client.answeredPing = false;
      client.socket.ping();
      send(client, frame);
    }
  }, heartbeatMs);
  heartbeat.unref();

  function subscribe(client: Client, symbols: string[]): void {
    const unknown = symbols.filter((symbol) => feed.latest(symbol).length === 0);
    if (unknown.length > 0) {
      send(client, encode({ type: 'error', message: `Unknown symbol: ${unknown.join(', ')}.` }));
      return;
    }
    for (const symbol of symbols) {
      client.symbols.add(symbol);
      let subscribers = subscribersBySymbol.get(symbol);
      if (!subscribers) subscribersBySymbol.set(symbol, (subscribers = new Set()));
      subscribers.add(client);
    }
    send(client, encode({ type: 'subscribed', channel: 'prices', symbols }));
    // The latest price at once, so a new page shows numbers before the next tick.
    for (const symbol of symbols) {
      for (const update of feed.latest(symbol)) send(client, encode({ type: 'price', data: update }));
    }
  }

  function unsubscribe(client: Client, symbols: string[]): void {
    for (const symbol of symbols) {
      client.symbols.delete(symbol);
      const subscribers = subscribersBySymbol.get(symbol);
      subscribers?.delete(client);
      if (subscribers?.size === 0) subscribersBySymbol.delete(symbol);
    }
    send(client, encode({ type: 'unsubscribed', channel: 'prices', symbols }));
  }

  function handle(client: Client, raw: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      send(client, encode({ type: 'error', message: 'A message must be JSON.' }));
      return;
    }
    const result = WsClientMessageSchema.safeParse(parsed);
    if (!result.success) {
      send(client, encode({ type: 'error', message: 'Unknown or malformed message.' }));
      return;
    }
    const message = result.data;
    if (message.type === 'ping') send(client, encode({ type: 'pong' }));
    else if (message.type === 'subscribe') subscribe(client, [...new Set(message.symbols)]);
    else unsubscribe(client, [...new Set(message.symbols)]);
  }

  return {
    accept(socket) {
      const client: Client = {
        socket,
        symbols: new Set(),
        userId: null,
        answeredPing: true,
        dropped: false,
      };
      clients.add(client);
      socket.on('pong', () => {
        client.answeredPing = true;
      });
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          send(client, encode({ type: 'error', message: 'A message must be JSON.' }));
          return;
        }
        handle(
          client,
          (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString('utf8'),
        );
      });
      socket.on('close', () => forget(client));
      socket.on('error', () => forget(client));
      return {
        identify(userId) {
          if (!clients.has(client)) return;
          client.userId = userId;
          let own = clientsByUser.get(userId);
          if (!own) clientsByUser.set(userId, (own = new Set()));
          own.add(client);
        },
      };
    },
    notifyUser(userId, event) {
      const own = clientsByUser.get(userId);
      if (!own) return;
      const frame = encode({ type: 'user', event });
      for (const client of own) send(client, frame);
    },
    get connectionCount() {
      return clients.size;
    },
    close() {
      clearInterval(heartbeat);
      unsubscribeFeed();
      for (const client of [...clients]) {
        forget(client);
        client.socket.close(1001, 'Server shutting down');
      }
    },
  };
}
