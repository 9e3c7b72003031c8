/** The trading benchmark's settings (most from the environment) and the orders it places. */
import { positiveNumber, textSetting } from '../support.js';

export const SECONDS = positiveNumber('BENCH_TRADING_SECONDS', 10);
export const CLIENT_COUNTS = [8, 32] as const;
export const ORDERS = Math.round(positiveNumber('BENCH_TRADING_ORDERS', 10_000));
export const ORDER_CUSTOMERS = Math.round(positiveNumber('BENCH_TRADING_ORDER_CUSTOMERS', 1_000));
export const PGBENCH_SCALE = Math.round(positiveNumber('BENCH_PGBENCH_SCALE', 32));
export const PGBENCH_THREADS = 2;
export const PGLITE_FILLS = textSetting('BENCH_TRADING_PGLITE_FILLS') === '1';
export const LOAD_WAIT_SECONDS = positiveNumber('BENCH_TRADING_WAIT', 180);
export const LOAD_GOAL = 1.5;
/**
 * `BENCH_TRADING_ONLY=instant`: only the instant executions on PostgreSQL beside their floors (no PGlite,
 * no fills, no tier volume), to iterate fast; the report is printed, bench/results is left as it is.
 */
export const ONLY_INSTANT = textSetting('BENCH_TRADING_ONLY') === 'instant';
/** A diagnostic: the app's process writes a V8 CPU profile (.cpuprofile) into this folder when it stops. */
export const CPU_PROFILE_DIR = textSetting('BENCH_TRADING_CPU_PROFILE');
/** Each instant execution buys the coin's smallest order, 0.01 BTC (about £200 at the resting price). */
/** Enough for every execution a client can make in a run. */
export const INSTANT_FUNDING_PENCE = 1_000_000_000n;
/** Resting limit buys: 0.01 BTC each at £15,000–£15,099, the market resting at £20,000 (ask ≈ £20,100). */
export const ORDER_QUANTITY = '0.01';
export const ORDER_FUNDING_PENCE = 1_000_000n;
/** The tick that crosses them all: the ask at about £10,050. */
export const CROSSING_MID = '10000';
export const PLACING_CLIENTS = 8;
export const FILL_TIMEOUT_MS = 600_000;
/** The busy customer's trades this year in the tier-volume measurement (issue 43). */
export const YEAR_TRADES = Math.round(positiveNumber('BENCH_TRADING_YEAR_TRADES', 100_000));
/**
 * How pgbench sends the execution's own SQL: `prepared` (each statement parsed once per connection), as the
 * app sends its statements since they are named by a hash of their text; `extended` parses every one.
 */
export const OWN_SQL_PROTOCOL =
  textSetting('BENCH_TRADING_SQL_PROTOCOL') === 'extended' ? 'extended' : 'prepared';
