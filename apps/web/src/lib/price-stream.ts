import {
  WS_PATH,
  UserEventSchema,
  WsServerMessageSchema,
  type PriceUpdate,
  type UserEvent,
  type WsClientMessage,
} from '@florin/contracts';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

/** The part of the browser's WebSocket the stream uses, so tests can hand in a fake. */
export type SocketLike = {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
};

export type PriceStreamStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export type PriceStreamOptions = {
  url: string;
  createSocket?: (url: string) => SocketLike;
  /**
   * The server sends a heartbeat every 15 s and says a client that hears
   * nothing for three of them should reconnect (contracts/ws.ts).
   */
  silenceLimitMs?: number;
  /** Reconnect delays double from the first to the cap, so a restarting server is not stampeded. */
  firstRetryMs?: number;
  maxRetryMs?: number;
};

const OPEN = 1;
type PriceListener = (update: PriceUpdate) => void;
type UserEventListener = (event: UserEvent) => void;

/**
 * One websocket shared by every price on the page and by the signed-in
 * customer's own events. It opens when the first symbol or event listener is
 * wanted and closes when the last one is released; it reconnects with backoff
 * after a drop or a silence, and subscribes again to whatever is wanted at
 * that moment.
 */
export class PriceStream {
  private readonly options: Required<PriceStreamOptions>;
  private socket: SocketLike | null = null;
  private readonly listenersBySymbol = new Map<string, Set<PriceListener>>();
  private readonly latestBySymbol = new Map<string, PriceUpdate>();
  private readonly userListeners = new Set<UserEventListener>();
  private readonly statusListeners = new Set<() => void>();
  private statusValue: PriceStreamStatus = 'idle';
  private failedAttempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: PriceStreamOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url) as SocketLike,
      silenceLimitMs: 45_000,
      firstRetryMs: 1_000,
      maxRetryMs: 30_000,
      ...options,
    };
  }

  get status(): PriceStreamStatus {
    return this.statusValue;
  }

  /** The last update heard for a symbol since the page loaded. */
  latest(symbol: string): PriceUpdate | undefined {
    return this.latestBySymbol.get(symbol);
  }

  /** Calls the listener with every update of the symbol; the returned function releases it. */
  subscribe(symbol: string, listener: PriceListener): () => void {
    let listeners = this.listenersBySymbol.get(symbol);
    if (!listeners) {
      listeners = new Set();
      this.listenersBySymbol.set(symbol, listeners);
      this.sendIfOpen({ type: 'subscribe', channel: 'prices', symbols: [symbol] });
    }
    listeners.add(listener);
    if (this.socket === null && this.retryTimer === null) this.connect();
    return () => this.release(symbol, listener);
  }

  /**
   * Calls the listener with every event the server sends about the signed-in
   * customer (their money moved). After a reconnection it is also called with
   * `balances`: events sent while the line was down are lost, so whatever the
   * page shows may be out of date.
   */
  onUserEvent(listener: UserEventListener): () => void {
    this.userListeners.add(listener);
    if (this.socket === null && this.retryTimer === null) this.connect();
    return () => {
      if (this.userListeners.delete(listener) && !this.isWanted()) this.shutDown();
    };
  }

  onStatusChange(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private release(symbol: string, listener: PriceListener): void {
    const listeners = this.listenersBySymbol.get(symbol);
    if (!listeners?.delete(listener) || listeners.size > 0) return;
    this.listenersBySymbol.delete(symbol);
    this.sendIfOpen({ type: 'unsubscribe', channel: 'prices', symbols: [symbol] });
    if (!this.isWanted()) this.shutDown();
  }

  private isWanted(): boolean {
    return this.listenersBySymbol.size > 0 || this.userListeners.size > 0;
  }

  private connect(): void {
    this.retryTimer = null;
    this.setStatus(this.failedAttempts === 0 ? 'connecting' : 'reconnecting');
    const socket = this.options.createSocket(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      const isReconnection = this.failedAttempts > 0;
      this.failedAttempts = 0;
      this.setStatus('open');
      this.watchSilence();
      // One message per symbol: the server refuses a whole subscribe naming a symbol it has no price for.
      for (const symbol of this.listenersBySymbol.keys()) {
        this.sendIfOpen({ type: 'subscribe', channel: 'prices', symbols: [symbol] });
      }
      // Events sent while the socket was down are lost: every page refetches as if it had heard them.
      if (isReconnection) for (const userEvent of UserEventSchema.options) this.emitUserEvent(userEvent);
    };
    socket.onmessage = (event) => this.handleMessage(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.scheduleReconnect();
    };
    // A failed connection also closes; the close handler alone decides what comes next.
    socket.onerror = () => undefined;
  }

  private handleMessage(data: unknown): void {
    this.watchSilence();
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const message = WsServerMessageSchema.safeParse(parsed);
    if (!message.success) return;
    if (message.data.type === 'user') {
      this.emitUserEvent(message.data.event);
      return;
    }
    if (message.data.type !== 'price') return;
    const update = message.data.data;
    this.latestBySymbol.set(update.symbol, update);
    for (const listener of this.listenersBySymbol.get(update.symbol) ?? []) listener(update);
  }

  private emitUserEvent(event: UserEvent): void {
    for (const listener of this.userListeners) listener(event);
  }

  /** Any message proves the line is alive; a silent one is closed and opened again. */
  private watchSilence(): void {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      const socket = this.socket;
      if (!socket) return;
      this.socket = null;
      socket.close();
      this.scheduleReconnect();
    }, this.options.silenceLimitMs);
  }

  private scheduleReconnect(): void {
    this.clearSilenceTimer();
    if (!this.isWanted()) {
      this.setStatus('idle');
      return;
    }
    const delay = Math.min(this.options.maxRetryMs, this.options.firstRetryMs * 2 ** this.failedAttempts);
    this.failedAttempts += 1;
    this.setStatus('reconnecting');
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private shutDown(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.clearSilenceTimer();
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.failedAttempts = 0;
    this.setStatus('idle');
  }

  private clearSilenceTimer(): void {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private sendIfOpen(message: WsClientMessage): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private setStatus(status: PriceStreamStatus): void {
    if (status === this.statusValue) return;
    this.statusValue = status;
    for (const listener of this.statusListeners) listener();
  }
}

/**
 * Whether a shown price must be said to be stale: the server marks it so
 * when its source stopped ticking, and while the line to the server is down
 * the page cannot know, so it says so too.
 */
export function isPriceStale(update: PriceUpdate | undefined, status: PriceStreamStatus): boolean {
  return status === 'reconnecting' || update?.stale === true;
}

let sharedStream: PriceStream | undefined;

/** The page's one stream, to the same host that served the page. */
export function getPriceStream(): PriceStream {
  if (!sharedStream) {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    sharedStream = new PriceStream({ url: `${scheme}//${window.location.host}${WS_PATH}` });
  }
  return sharedStream;
}

/**
 * The latest update of a symbol, re-rendering on each tick; undefined until
 * the first one arrives. A symbol of null subscribes to nothing.
 */
export function useLivePrice(symbol: string | null): PriceUpdate | undefined {
  const subscribe = useCallback(
    (onChange: () => void) => (symbol ? getPriceStream().subscribe(symbol, onChange) : () => undefined),
    [symbol],
  );
  // A page drawn at build time (prerender.tsx) has no price yet, like a first render before the first tick.
  return useSyncExternalStore(
    subscribe,
    () => (symbol ? getPriceStream().latest(symbol) : undefined),
    () => undefined,
  );
}

/** Calls onUpdate with every tick of the symbol without re-rendering (the chart draws them itself). */
export function usePriceUpdates(symbol: string, onUpdate: PriceListener): void {
  const latestHandler = useRef(onUpdate);
  useEffect(() => {
    latestHandler.current = onUpdate;
  });
  useEffect(() => getPriceStream().subscribe(symbol, (update) => latestHandler.current(update)), [symbol]);
}

export function usePriceStreamStatus(): PriceStreamStatus {
  return useSyncExternalStore(
    (onChange) => getPriceStream().onStatusChange(onChange),
    () => getPriceStream().status,
    () => 'idle',
  );
}

/**
 * Calls onEvent with every event about the signed-in customer, over the
 * page's one stream (opened for this if no price is wanted).
 */
export function useUserEvents(onEvent: UserEventListener): void {
  const latestHandler = useRef(onEvent);
  useEffect(() => {
    latestHandler.current = onEvent;
  });
  useEffect(() => getPriceStream().onUserEvent((event) => latestHandler.current(event)), []);
}
