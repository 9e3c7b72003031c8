/** The history benchmark's settings (from the environment) and its log, shared by its parts. */
import { performance } from 'node:perf_hooks';
import { HISTORY_PAGE_SIZE } from '@florin/contracts';
import { positiveNumber } from '../support.js';

export const TRANSACTIONS = Math.round(positiveNumber('BENCH_HISTORY_TRANSACTIONS', 1_000_000));
export const REQUESTS = Math.round(positiveNumber('BENCH_HISTORY_REQUESTS', 100));
export const DEEP_REQUESTS = Math.round(positiveNumber('BENCH_HISTORY_DEEP_REQUESTS', 20));
export const DEEP_PAGE = Math.min(
  Math.round(positiveNumber('BENCH_HISTORY_DEEP_PAGE', 50_000)),
  Math.ceil(TRANSACTIONS / HISTORY_PAGE_SIZE),
);
export const ROUNDS = Math.round(positiveNumber('BENCH_HISTORY_ROUNDS', 2));
export const HISTORY_PATH = '/api/v1/user/fiat-crypto-transactions';
export const EXPORT_PATH = '/api/v1/crypto/transactions/export';
export const MB = 1024 * 1024;
/** In the diagnostic export: how often the server forces a full GC to see what it really holds. */
export const LIVE_EVERY_MS = 250;

const startedAt = performance.now();
export const log = (message: string) =>
  console.log(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}`);
