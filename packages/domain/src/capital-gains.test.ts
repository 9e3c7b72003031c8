import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  HoldingHistoryError,
  matchDisposals,
  taxYear,
  taxYearOf,
  type HoldingEvent,
} from './capital-gains.js';
import { parseAmount } from './money.js';

/** Fixed seeds: a failure shows the same counterexample on every run. */
const PROPERTY_RUNS = { seed: 20261126, numRuns: 300 };

/** HMRC's examples count whole tokens and pounds; here tokens are units and sums pence. */
const pounds = (value: number | string) => parseAmount(String(value), 'GBP');
const bought = (day: string, quantity: number, cost: number | string): HoldingEvent => ({
  kind: 'acquisition',
  day,
  quantity: BigInt(quantity),
  gbp: pounds(cost),
});
const sold = (day: string, quantity: number, proceeds: number | string): HoldingEvent => ({
  kind: 'disposal',
  day,
  quantity: BigInt(quantity),
  gbp: pounds(proceeds),
});

/**
 * The worked examples of HMRC's Cryptoassets Manual, CRYPTO22251 to CRYPTO22256
 * ("20XX" is 2024 here; an opening pool is an acquisition well before). HMRC
 * rounds its published figures to whole pounds; the rules here keep pence, so
 * where the manual shows £938 the cost is £937.50.
 */
describe("HMRC's pooling examples", () => {
  it('example 1 (CRYPTO22251): a part disposal of the section 104 pool takes its average cost', () => {
    const history = matchDisposals([
      bought('2024-01-10', 100, 1_000),
      bought('2024-09-18', 50, 125_000),
      sold('2024-12-01', 50, 300_000),
    ]);
    expect(history.disposals).toEqual([
      {
        day: '2024-12-01',
        quantity: 50n,
        proceeds: pounds(300_000),
        cost: pounds(42_000),
        gain: pounds(258_000),
        matches: [{ rule: 'section-104', quantity: 50n, cost: pounds(42_000) }],
        uncostedQuantity: 0n,
      },
    ]);
    expect(history.pool).toEqual({ quantity: 100n, cost: pounds(84_000), uncostedQuantity: 0n });
  });

  it("example 2 (CRYPTO22252): a day's disposals are one, matched with that day's acquisition; the rest goes into the pool", () => {
    const history = matchDisposals([
      bought('2024-01-02', 5_000, 500),
      sold('2024-06-23', 1_000, 800),
      bought('2024-06-23', 1_600, 1_000),
      sold('2024-06-23', 500, 600),
    ]);
    expect(history.disposals).toHaveLength(1);
    expect(history.disposals[0]).toMatchObject({
      quantity: 1_500n,
      proceeds: pounds(1_400),
      cost: pounds('937.50'),
      gain: pounds('462.50'),
      matches: [{ rule: 'same-day', quantity: 1_500n, cost: pounds('937.50') }],
    });
    expect(history.pool).toEqual({ quantity: 5_100n, cost: pounds('562.50'), uncostedQuantity: 0n });
    expect(history.poolChanges.at(-1)).toEqual({
      day: '2024-06-23',
      reason: 'acquisition',
      quantity: 100n,
      cost: pounds('62.50'),
      after: { quantity: 5_100n, cost: pounds('562.50'), uncostedQuantity: 0n },
    });
  });

  it('example 4 (CRYPTO22254): what the same day cannot match comes out of the pool', () => {
    const history = matchDisposals([
      bought('2023-05-01', 8_000, 1_000),
      sold('2024-01-31', 5_000, 500),
      bought('2024-01-31', 4_000, 320),
      bought('2024-01-31', 1_000, 75),
      bought('2024-01-31', 1_000, 70),
      sold('2024-01-31', 2_000, 142),
      bought('2024-01-31', 500, 35),
    ]);
    expect(history.disposals[0]).toMatchObject({
      quantity: 7_000n,
      proceeds: pounds(642),
      cost: pounds('562.50'),
      gain: pounds('79.50'),
      matches: [
        { rule: 'same-day', quantity: 6_500n, cost: pounds(500) },
        { rule: 'section-104', quantity: 500n, cost: pounds('62.50') },
      ],
    });
    expect(history.pool).toEqual({ quantity: 7_500n, cost: pounds('937.50'), uncostedQuantity: 0n });
  });

  it('example 5 (CRYPTO22255): a purchase within 30 days after a sale is matched with it, not pooled', () => {
    const history = matchDisposals([
      bought('2023-03-01', 14_000, 200_000),
      sold('2024-08-30', 4_000, 160_000),
      bought('2024-09-11', 500, 17_500),
    ]);
    expect(history.disposals[0]).toMatchObject({
      cost: pounds(67_500),
      gain: pounds(92_500),
      matches: [
        { rule: 'thirty-day', quantity: 500n, cost: pounds(17_500), acquiredOn: '2024-09-11' },
        { rule: 'section-104', quantity: 3_500n, cost: pounds(50_000) },
      ],
    });
    expect(history.pool).toEqual({ quantity: 10_500n, cost: pounds(150_000), uncostedQuantity: 0n });
  });

  it('example 6 (CRYPTO22256): same day first, then one later purchase shared by two earlier sales, then the pool', () => {
    const history = matchDisposals([
      bought('2023-01-01', 100_000, 300_000),
      bought('2024-07-31', 10_000, 45_000),
      sold('2024-07-31', 30_000, 150_000),
      sold('2024-08-05', 20_000, 100_000),
      bought('2024-08-06', 50_000, 225_000),
      sold('2024-08-07', 100_000, 150_000),
    ]);
    const [july31, august5, august7] = history.disposals;
    expect(july31).toMatchObject({
      gain: pounds(15_000),
      matches: [
        { rule: 'same-day', quantity: 10_000n, cost: pounds(45_000) },
        { rule: 'thirty-day', quantity: 20_000n, cost: pounds(90_000), acquiredOn: '2024-08-06' },
      ],
    });
    expect(august5).toMatchObject({
      gain: pounds(10_000),
      matches: [{ rule: 'thirty-day', quantity: 20_000n, cost: pounds(90_000), acquiredOn: '2024-08-06' }],
    });
    // The 10,000 left of 6 August join the pool (110,000 for £345,000); 7 August takes 100,000 of them:
    // £345,000 × 100,000 ÷ 110,000 = £313,636.36, a loss of £163,636.36.
    expect(august7).toMatchObject({
      cost: pounds('313636.36'),
      gain: -pounds('163636.36'),
      matches: [{ rule: 'section-104', quantity: 100_000n, cost: pounds('313636.36') }],
    });
    expect(history.pool).toEqual({ quantity: 10_000n, cost: pounds('31363.64'), uncostedQuantity: 0n });
  });
});

describe('the matching rules beyond the examples', () => {
  it('a purchase 31 days after a sale is too late for the 30-day rule', () => {
    const history = matchDisposals([
      bought('2024-01-01', 10, 100),
      sold('2024-03-01', 10, 200),
      bought('2024-03-31', 10, 150),
    ]);
    expect(history.disposals[0]!.matches.map((match) => match.rule)).toEqual(['thirty-day']);
    const late = matchDisposals([
      bought('2024-01-01', 10, 100),
      sold('2024-03-01', 10, 200),
      bought('2024-04-01', 10, 150),
    ]);
    expect(late.disposals[0]).toMatchObject({ cost: pounds(100), gain: pounds(100) });
  });

  it('coins received from outside join the pool at no recorded cost, and a sale of them says so', () => {
    const history = matchDisposals([
      bought('2024-01-01', 100, 1_000),
      { kind: 'transfer-in', day: '2024-02-01', quantity: 100n, gbp: 0n },
      sold('2024-03-01', 50, 800),
    ]);
    expect(history.disposals[0]).toMatchObject({
      cost: pounds(250),
      gain: pounds(550),
      uncostedQuantity: 25n,
    });
    expect(history.pool).toEqual({ quantity: 150n, cost: pounds(750), uncostedQuantity: 75n });
  });

  it('counts coins sold with no history here as received with no recorded cost', () => {
    const history = matchDisposals([bought('2024-01-01', 10, 100), sold('2024-01-02', 15, 300)]);
    expect(history.disposals[0]).toMatchObject({
      cost: pounds(100),
      gain: pounds(200),
      uncostedQuantity: 5n,
    });
    expect(history.pool).toEqual({ quantity: 0n, cost: 0n, uncostedQuantity: 0n });
  });

  it('refuses an event that is not a day, a positive quantity and a sum', () => {
    expect(() => matchDisposals([sold('2024-1-2', 1, 1)])).toThrow(HoldingHistoryError);
    expect(() => matchDisposals([bought('2024-01-02', 0, 1)])).toThrow(HoldingHistoryError);
    expect(() => matchDisposals([{ kind: 'disposal', day: '2024-01-02', quantity: 1n, gbp: -1n }])).toThrow(
      HoldingHistoryError,
    );
  });

  it('neither creates nor loses a penny of cost or a unit of the coin, whatever the history', () => {
    const step = fc.record({
      gap: fc.integer({ min: 0, max: 20 }),
      kind: fc.constantFrom('acquisition', 'disposal', 'transfer-in', 'send-out'),
      share: fc.integer({ min: 1, max: 100 }),
      quantity: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      gbp: fc.bigInt({ min: 0n, max: 10n ** 9n }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        // A history a real account could have: never selling or sending more than it holds.
        let day = '2024-01-01';
        let held = 0n;
        const events: HoldingEvent[] = [];
        for (const { gap, kind, share, quantity, gbp } of steps) {
          day = addDays(day, gap);
          if (kind === 'acquisition' || kind === 'transfer-in') {
            events.push({ kind, day, quantity, gbp: kind === 'acquisition' ? gbp : 0n });
            held += quantity;
            continue;
          }
          const amount = (held * BigInt(share)) / 100n;
          if (amount === 0n) continue;
          held -= amount;
          if (kind === 'disposal') events.push({ kind, day, quantity: amount, gbp });
        }
        const history = matchDisposals(events);
        const total = (kind: HoldingEvent['kind'], field: 'quantity' | 'gbp') =>
          events.filter((event) => event.kind === kind).reduce((sum, event) => sum + event[field], 0n);
        const costOfDisposals = history.disposals.reduce((sum, disposal) => sum + disposal.cost, 0n);
        expect(costOfDisposals + history.pool.cost).toBe(total('acquisition', 'gbp'));
        const disposed = history.disposals.reduce((sum, disposal) => sum + disposal.quantity, 0n);
        expect(disposed).toBe(total('disposal', 'quantity'));
        expect(history.pool.quantity).toBe(
          total('acquisition', 'quantity') + total('transfer-in', 'quantity') - disposed,
        );
        for (const disposal of history.disposals) {
          expect(disposal.matches.reduce((sum, match) => sum + match.quantity, 0n)).toBe(disposal.quantity);
          expect(disposal.gain).toBe(disposal.proceeds - disposal.cost);
        }
        expect(history.pool.uncostedQuantity).toBeGreaterThanOrEqual(0n);
        expect(history.pool.uncostedQuantity).toBeLessThanOrEqual(history.pool.quantity);
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('UK tax years', () => {
  it('run from 6 April to 5 April', () => {
    expect(taxYearOf('2025-04-05')).toBe(2024);
    expect(taxYearOf('2025-04-06')).toBe(2025);
    expect(taxYearOf('2026-01-31')).toBe(2025);
    expect(taxYear(2025)).toEqual({ first: '2025-04-06', last: '2026-04-05', label: '2025–26' });
    expect(taxYear(2099).label).toBe('2099–00');
  });

  it('count days across month and leap-year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-08-30', 30)).toBe('2024-09-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
  });
});
