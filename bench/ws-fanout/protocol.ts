/**
 * What the fan-out benchmark (run.ts) and its server process (server.ts) share.
 * run.ts imports this and never server.ts: importing server.ts starts a server,
 * which kept the benchmark's own process from exiting.
 */
export type ServerKind = 'florin' | 'bare';
export type ParentMessage = { type: 'tick'; seq: number } | { type: 'stop' };
export type ChildMessage = { type: 'listening'; url: string };

export const SYMBOL = 'BTC/GBP';
