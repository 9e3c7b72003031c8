import type { Clock } from '../clock.js';

export type TestClock = Clock & {
  /** Moves the clock forward: the time a test would otherwise have waited for passes at once. */
  advance(ms: number): void;
};

/**
 * A clock that runs with the wall clock, `advance` ms ahead. It keeps running (rather than standing
 * still) so that it is never behind the database's now(): a row the database stamped, or a test
 * back-dated by an interval, stays as far in the clock's past as it is in the wall clock's.
 */
export function createTestClock(): TestClock {
  let aheadMs = 0;
  return {
    now: () => new Date(Date.now() + aheadMs),
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`a clock only moves forward, not by ${ms} ms`);
      aheadMs += ms;
    },
  };
}

/**
 * The clock of every app a test file builds (createTestApp), and the time the file's TOTP codes are
 * made for. Vitest gives each test file its own modules, so each file has its own clock.
 */
export const testClock = createTestClock();
