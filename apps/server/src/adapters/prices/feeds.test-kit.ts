import { once } from 'node:events';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Frames as the exchanges send them. Kraken: websocket API v2, "Ticker
 * (Level 1)" (prices as JSON numbers). Coinbase Exchange: ws-feed, the
 * `ticker` and `heartbeat` channels (prices as decimal strings).
 */
export const KRAKEN_FRAMES = {
  status:
    '{"channel":"status","type":"update","data":[{"version":"2.0.9","system":"online","api_version":"v2","connection_id":12393906104898154338}]}',
  subscribed:
    '{"method":"subscribe","result":{"channel":"ticker","event_trigger":"bbo","snapshot":true,"symbol":"BTC/GBP"},"success":true,"time_in":"2026-11-23T12:00:00.412345Z","time_out":"2026-11-23T12:00:00.412399Z"}',
  snapshot:
    '{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/GBP","bid":71998.4,"bid_qty":0.25,"ask":71998.5,"ask_qty":1.02436011,"last":71998.5,"volume":312.10733312,"vwap":71543.2,"low":70880.1,"high":72310.0,"change":812.3,"change_pct":1.14}]}',
  heartbeat: '{"channel":"heartbeat"}',
  /** After a reconnect: 4% above Coinbase, a feed gone wrong (or Coinbase's). */
  farUpdate:
    '{"channel":"ticker","type":"update","data":[{"symbol":"BTC/GBP","bid":74890.1,"bid_qty":0.5,"ask":74890.3,"ask_qty":0.75,"last":74890.2,"volume":318.4412,"vwap":71602.9,"low":70880.1,"high":74890.3,"change":3704.0,"change_pct":5.2,"timestamp":"2026-11-23T12:00:08.000000Z"}]}',
};

export const COINBASE_FRAMES = {
  subscriptions:
    '{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-GBP"],"account_ids":null},{"name":"heartbeat","product_ids":["BTC-GBP"],"account_ids":null}]}',
  ticker:
    '{"type":"ticker","sequence":91544361234,"product_id":"BTC-GBP","price":"72010.01","open_24h":"71240.55","volume_24h":"412.80937211","low_24h":"70901.12","high_24h":"72350.00","volume_30d":"13011.44419875","best_bid":"72010.00","best_bid_size":"0.05120000","best_ask":"72010.01","best_ask_size":"0.31000000","side":"buy","time":"2026-11-23T12:00:00.912345Z","trade_id":88312456,"last_size":"0.00184377"}',
  heartbeat:
    '{"type":"heartbeat","last_trade_id":88312456,"product_id":"BTC-GBP","sequence":91544361240,"time":"2026-11-23T12:00:01.000123Z"}',
  laterTicker:
    '{"type":"ticker","sequence":91544362001,"product_id":"BTC-GBP","price":"72031.50","open_24h":"71240.55","volume_24h":"413.01110021","low_24h":"70901.12","high_24h":"72350.00","volume_30d":"13011.64592685","best_bid":"72031.49","best_bid_size":"0.10000000","best_ask":"72031.50","best_ask_size":"0.02541000","side":"sell","time":"2026-11-23T12:00:07.400000Z","trade_id":88312511,"last_size":"0.01200000"}',
  error: '{"type":"error","message":"Failed to subscribe","reason":"BCH-GBP is not a valid product"}',
};

/**
 * An exchange's websocket on this machine: it records what the client sends
 * and replays recorded frames on the latest connection when the test says.
 */
export async function startExchangeServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const connections: WebSocket[] = [];
  const received: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  server.on('connection', (socket) => {
    connections.push(socket);
    socket.on('message', (data: Buffer) => {
      received.push(data.toString('utf8'));
      for (const waiter of waiters.splice(0))
        if (received.length >= waiter.count) waiter.resolve();
        else waiters.push(waiter);
    });
  });
  const latest = (): WebSocket => {
    const socket = connections.at(-1);
    if (!socket) throw new Error('no client connected');
    return socket;
  };
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    /** Resolves once the client has sent this many messages in all (its subscriptions). */
    receivedCount(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    send(...frames: string[]): void {
      for (const frame of frames) latest().send(frame);
    },
    /** The exchange drops the connection, as a network fault does. */
    async drop(): Promise<void> {
      const socket = latest();
      const closed = once(socket, 'close');
      socket.terminate();
      await closed;
    },
    async close(): Promise<void> {
      for (const socket of connections) socket.terminate();
      server.close();
      await once(server, 'close');
    },
  };
}
