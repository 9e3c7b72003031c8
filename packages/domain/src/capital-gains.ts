/**
 * HMRC's share-matching rules for an individual's disposals of one coin
 * (TCGA 1992 s105, s106A and s104; HMRC Cryptoassets Manual CRYPTO22200):
 * a disposal is matched first with acquisitions of the same day, then with
 * acquisitions of the following 30 days (earliest first), and the rest comes
 * out of the section 104 pool at its average cost. Quantities are counts of
 * the coin's smallest unit, sums of money are pence; all of it bigint.
 */

/** One event in the life of a customer's holding of one coin. */
export type HoldingEvent = {
  /**
   * `acquisition` and `disposal` are trades. A `transfer-in` (coins received
   * from outside) enters the pool with no recorded cost. Coins sent out are
   * no event: moving one's own coins is not a disposal, and they stay in the
   * pool, which HMRC keeps per person, not per wallet.
   */
  kind: 'acquisition' | 'disposal' | 'transfer-in';
  /** The UK calendar day it happened on, `YYYY-MM-DD` (Europe/London). */
  day: string;
  quantity: bigint;
  /** Pence: an acquisition's cost with its fee, a disposal's proceeds less its fee; 0 for transfers. */
  gbp: bigint;
};

export type MatchRule = 'same-day' | 'thirty-day' | 'section-104';

export type DisposalMatch = {
  rule: MatchRule;
  quantity: bigint;
  cost: bigint;
  /** The day of the acquisition a 30-day match draws on. */
  acquiredOn?: string;
};

/** All of one day's disposals, which HMRC treats as one (CRYPTO22252). */
export type MatchedDisposal = {
  day: string;
  quantity: bigint;
  proceeds: bigint;
  cost: bigint;
  /** proceeds − cost: negative for a loss. */
  gain: bigint;
  matches: DisposalMatch[];
  /** Of `quantity`, how much came out of the pool as coins received with no recorded cost. */
  uncostedQuantity: bigint;
};

export type Section104Pool = { quantity: bigint; cost: bigint; uncostedQuantity: bigint };

export type PoolChange = {
  day: string;
  reason: HoldingEvent['kind'];
  /** Signed: what went in (+) or came out (−). */
  quantity: bigint;
  cost: bigint;
  after: Section104Pool;
};

export type MatchedHistory = {
  disposals: MatchedDisposal[];
  pool: Section104Pool;
  poolChanges: PoolChange[];
};

export class HoldingHistoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HoldingHistoryError';
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `day` + `days` calendar days, as `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** a × numerator ÷ denominator to the nearest unit, halves up (as HMRC's worked examples round). */
function share(amount: bigint, numerator: bigint, denominator: bigint): bigint {
  return (2n * amount * numerator + denominator) / (2n * denominator);
}

type Day = {
  day: string;
  acquired: bigint;
  acquiredCost: bigint;
  disposed: bigint;
  proceeds: bigint;
  transferredIn: bigint;
  /** What is left of the day's acquisitions once matched, with its cost. */
  unmatchedAcquired: bigint;
  unmatchedAcquiredCost: bigint;
  /** What is left of the day's disposals once matched. */
  unmatchedDisposed: bigint;
  matches: DisposalMatch[];
};

function daysOf(events: readonly HoldingEvent[]): Day[] {
  const byDay = new Map<string, Day>();
  for (const event of events) {
    if (!DAY.test(event.day)) throw new HoldingHistoryError(`"${event.day}" is not a YYYY-MM-DD day`);
    if (event.quantity <= 0n || event.gbp < 0n)
      throw new HoldingHistoryError(`an event on ${event.day} has a quantity or sum out of range`);
    let day = byDay.get(event.day);
    if (!day) {
      day = {
        day: event.day,
        acquired: 0n,
        acquiredCost: 0n,
        disposed: 0n,
        proceeds: 0n,
        transferredIn: 0n,
        unmatchedAcquired: 0n,
        unmatchedAcquiredCost: 0n,
        unmatchedDisposed: 0n,
        matches: [],
      };
      byDay.set(event.day, day);
    }
    if (event.kind === 'acquisition') {
      day.acquired += event.quantity;
      day.acquiredCost += event.gbp;
    } else if (event.kind === 'disposal') {
      day.disposed += event.quantity;
      day.proceeds += event.gbp;
    } else day.transferredIn += event.quantity;
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** Takes `quantity` of a day's unmatched acquisitions, with its share of their cost. */
function takeAcquired(day: Day, quantity: bigint): bigint {
  const cost = share(day.unmatchedAcquiredCost, quantity, day.unmatchedAcquired);
  day.unmatchedAcquired -= quantity;
  day.unmatchedAcquiredCost -= cost;
  return cost;
}

/**
 * Matches one coin's history under HMRC's rules. Events may come in any
 * order; a day's events are taken together. Throws HoldingHistoryError for
 * an event that is not a day, a positive quantity and a sum of at least 0.
 */
export function matchDisposals(events: readonly HoldingEvent[]): MatchedHistory {
  const days = daysOf(events);
  for (const day of days) {
    day.unmatchedAcquired = day.acquired;
    day.unmatchedAcquiredCost = day.acquiredCost;
    day.unmatchedDisposed = day.disposed;
  }

  // 1. The same day (TCGA s105(1)).
  for (const day of days) {
    const quantity = day.disposed < day.acquired ? day.disposed : day.acquired;
    if (quantity === 0n) continue;
    day.matches.push({ rule: 'same-day', quantity, cost: takeAcquired(day, quantity) });
    day.unmatchedDisposed -= quantity;
  }

  // 2. The next 30 days, earlier disposals first, each from the earliest acquisitions (s106A(5)).
  for (const [index, day] of days.entries()) {
    if (day.unmatchedDisposed === 0n) continue;
    const lastDay = addDays(day.day, 30);
    for (const later of days.slice(index + 1)) {
      if (later.day > lastDay || day.unmatchedDisposed === 0n) break;
      if (later.unmatchedAcquired === 0n) continue;
      const quantity =
        day.unmatchedDisposed < later.unmatchedAcquired ? day.unmatchedDisposed : later.unmatchedAcquired;
      day.matches.push({
        rule: 'thirty-day',
        quantity,
        cost: takeAcquired(later, quantity),
        acquiredOn: later.day,
      });
      day.unmatchedDisposed -= quantity;
    }
  }

  // 3. The section 104 pool, day by day: what the day brought in, then what it took out.
  const pool: Section104Pool = { quantity: 0n, cost: 0n, uncostedQuantity: 0n };
  const poolChanges: PoolChange[] = [];
  const record = (day: string, reason: PoolChange['reason'], quantity: bigint, cost: bigint) =>
    poolChanges.push({ day, reason, quantity, cost, after: { ...pool } });

  const disposals: MatchedDisposal[] = [];
  for (const day of days) {
    if (day.unmatchedAcquired > 0n) {
      pool.quantity += day.unmatchedAcquired;
      pool.cost += day.unmatchedAcquiredCost;
      record(day.day, 'acquisition', day.unmatchedAcquired, day.unmatchedAcquiredCost);
    }
    if (day.transferredIn > 0n) {
      pool.quantity += day.transferredIn;
      pool.uncostedQuantity += day.transferredIn;
      record(day.day, 'transfer-in', day.transferredIn, 0n);
    }
    let uncostedQuantity = 0n;
    const fromPool = day.unmatchedDisposed;
    if (fromPool > 0n) {
      // The pool holds at least every coin held (coins sent out stay in it), so this is a sale of coins
      // with no history here (credited some other way): they count as received with no recorded cost.
      if (fromPool > pool.quantity) {
        const unknown = fromPool - pool.quantity;
        pool.quantity += unknown;
        pool.uncostedQuantity += unknown;
        record(day.day, 'transfer-in', unknown, 0n);
      }
      const cost = share(pool.cost, fromPool, pool.quantity);
      uncostedQuantity = share(pool.uncostedQuantity, fromPool, pool.quantity);
      pool.quantity -= fromPool;
      pool.cost -= cost;
      pool.uncostedQuantity -= uncostedQuantity;
      day.matches.push({ rule: 'section-104', quantity: fromPool, cost });
      record(day.day, 'disposal', -fromPool, -cost);
    }
    if (day.disposed > 0n) {
      const cost = day.matches.reduce((sum, match) => sum + match.cost, 0n);
      disposals.push({
        day: day.day,
        quantity: day.disposed,
        proceeds: day.proceeds,
        cost,
        gain: day.proceeds - cost,
        matches: day.matches,
        uncostedQuantity,
      });
    }
  }
  return { disposals, pool, poolChanges };
}

/** The UK tax year a day falls in, by the year it starts: 6 April 2025 to 5 April 2026 is 2025. */
export function taxYearOf(day: string): number {
  const year = Number(day.slice(0, 4));
  return day.slice(5) >= '04-06' ? year : year - 1;
}

/** The first and last day of the tax year that starts in `year`, and its name: "2025–26". */
export function taxYear(year: number): { first: string; last: string; label: string } {
  return {
    first: `${year}-04-06`,
    last: `${year + 1}-04-05`,
    label: `${year}–${String((year + 1) % 100).padStart(2, '0')}`,
  };
}
