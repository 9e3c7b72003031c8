import fc from 'fast-check';
import { fromMinorUnits, parseAmount, type AssetCode } from './money.js';
import { DEFAULT_FEE_SCHEDULE } from './trading.js';

/** Fixed seeds: a failure shows the same counterexample on every run. */
export const PROPERTY_RUNS = { seed: 20261123, numRuns: 400 };

export const BTC = (text: string) => parseAmount(text, 'BTC');
export const GBP = (text: string) => parseAmount(text, 'GBP');

export const COINS: AssetCode[] = ['BTC', 'ETH', 'LTC', 'BCH', 'XRP'];
/** One step of a trade quantity: 4 decimals, XRP whole units (spec 002 §5). */
export const stepOf = (coin: AssetCode) => parseAmount(coin === 'XRP' ? '1' : '0.0001', coin);
export const FIATS: AssetCode[] = ['GBP', 'EUR', 'USD'];
export const SCHEDULE_PERCENTS = [
  ...Object.values(DEFAULT_FEE_SCHEDULE[1]),
  ...Object.values(DEFAULT_FEE_SCHEDULE[2]),
];

export const coinArb = fc.constantFrom(...COINS);
export const fiatArb = fc.constantFrom(...FIATS);
/** Prices from 0.00000001 to 10,000,000 with 0 to 8 decimals. */
export const priceArb = fc
  .integer({ min: 0, max: 8 })
  .chain((places) =>
    fc.bigInt({ min: 1n, max: 10n ** BigInt(7 + places) }).map((units) => fromMinorUnits(units, places)),
  );
/** The schedule's fees, zero, and any percent below 100 with up to 4 decimals. */
export const percentArb = fc.oneof(
  fc.constantFrom(...SCHEDULE_PERCENTS, '0'),
  fc.bigInt({ min: 0n, max: 999_999n }).map((units) => fromMinorUnits(units, 4)),
);
