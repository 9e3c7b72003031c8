/** What the trading benchmark and its server process (server.ts) say to each other over IPC. */
import type { Seeded, VolumeReads } from './seed-trades.js';

/** The pair every figure trades. */
export const SYMBOL = 'BTC/GBP';
/** Where the simulated market rests while clients trade and orders wait. */
export const RESTING_MID = '20000';

export type Customer = { id: number; token: string; csrf: string };

/** What the fill engine did between a tick and the last fill committing (seen from the server process). */
export type CrossResult = {
  /** The tick itself: market.drive, until the fill engine has been told (it runs on after). */
  tickMs: number;
  /** From the tick until a poll of the database found none of the expected orders open any more (all filled, committed). */
  allCommittedMs: number;
  /** From the tick to the first and last `filled_at` the app stamped (just before each fill commits). */
  firstFillMs: number;
  lastFillMs: number;
  filled: number;
  stillOpen: number;
  polls: number;
  /** CPU seconds of the server process (the app, and PGlite with it) from the tick until all committed. */
  appCpuSeconds: number;
  timedOut: boolean;
};

export type ParentMessage =
  | { type: 'customers'; count: number; platform: 1 | 2; gbpPence: string; label: string }
  | { type: 'cross'; mid: string; expected: number; timeoutMs: number }
  /**
   * Start (on) or stop counting the statements the app sends to PostgreSQL; the answer has the counts so far,
   * and the milliseconds the app waited on each kind (from sending it to its answer, overlapping ones added up).
   */
  | { type: 'count'; on: boolean }
  | { type: 'check' }
  /** Seeds `count` trades this year for the customer (tier-volume.ts), then times their volume read both ways. */
  | { type: 'seed-trades'; userId: number; count: number; compareWith: number }
  | { type: 'stop' };

export type ChildMessage =
  | { type: 'listening'; url: string; pid: number; engine: string; version: string }
  | { type: 'customers'; customers: Customer[]; seconds: number }
  | { type: 'crossed'; result: CrossResult }
  | { type: 'counted'; statements: [string, number][]; waitedMs: [string, number][] }
  | { type: 'checked'; ok: boolean; violations: string; seconds: number; counts: Record<string, number> }
  | { type: 'seeded'; seeded: Seeded; reads: VolumeReads[] };
