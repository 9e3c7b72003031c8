/** The scale benchmark's settings, from the environment. */
import { positiveNumber, textSetting } from '../support.js';

/** Seconds of each timed stretch; every setup and client count gets ROUNDS of them, interleaved. */
export const SECONDS = positiveNumber('BENCH_SCALE_SECONDS', 5);
export const ROUNDS = Math.round(positiveNumber('BENCH_SCALE_ROUNDS', 2));
/** Untimed load on each instance before the first round, so no setup pays for a cold JIT. */
export const WARM_UP_SECONDS = 5;
export const CLIENT_COUNTS = (textSetting('BENCH_SCALE_CLIENTS') ?? '8,32')
  .split(',')
  .map((count) => Math.round(Number(count)))
  .filter((count) => count > 0);
export const LOAD_WAIT_SECONDS = positiveNumber('BENCH_SCALE_WAIT', 30);
export const LOAD_GOAL = 1.5;
