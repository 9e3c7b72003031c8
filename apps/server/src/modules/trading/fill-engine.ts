import type { PriceUpdate } from '@florin/contracts';
import type { Fill, Fills } from './fills.js';
import type { TradingServiceDeps } from './shared.js';

/**
 * Orders one transaction fills; a pass fills up to this many in each lane. A
 * transaction's statements are a fixed number however many orders it fills,
 * so bigger batches mean fewer round trips, each of which, on a busy machine,
 * waits its turn for a core (decision 136: 10,000 fills in one read took a
 * quarter less CPU a fill than in ten reads of 500 a lane). The price: a
 * batch's customers wait for its commit, a second or two at most.
 */
const FILL_BATCH = 2500;
/**
 * Transactions a pass runs at once, over different customers' orders: while
 * the database writes one batch the app prices the next (both cores are
 * busy, not one). On PGlite they queue on its one connection.
 */
const FILL_LANES = 4;

/** The newest update per symbol. */
function mergeUpdates(current: readonly PriceUpdate[], next: readonly PriceUpdate[]): PriceUpdate[] {
  const bySymbol = new Map(current.map((update) => [update.symbol, update]));
  for (const update of next) bySymbol.set(update.symbol, update);
  return [...bySymbol.values()];
}

/**
 * The fill engine (the leading instance): on each tick, fills the orders the
 * prices have crossed and expires those past their time; at shutdown, stops.
 */
export function createFillEngine(deps: TradingServiceDeps, fills: Fills) {
  const { db, repository, ledger, userEvents } = deps;
  const { fillCrossed, afterFills } = fills;
  const ordersPerRead = (deps.fillBatch ?? FILL_BATCH) * FILL_LANES;

  async function expireOrder(orderId: string): Promise<number | null> {
    return db.transaction().execute(async (trx) => {
      const order = await repository.lockOrder(trx, orderId);
      if (!order || order.status !== 'open' || !order.expires_at || order.expires_at > new Date())
        return null;
      await ledger.releaseHold(trx, { holdId: order.hold_id, outcome: 'expired' });
      await repository.updateOrder(trx, order.id, { status: 'expired' });
      return order.user_id;
    });
  }

  let sweeping: Promise<void> | null = null;
  let sweepAgain = false;
  /** Set at shutdown: no sweep starts, and the one running ends after the fills in flight commit. */
  let stopping = false;
  let latestUpdates: PriceUpdate[] = [];

  /** Fills every order the prices have crossed and expires those past their time, one pass at a time. */
  async function sweep(updates: readonly PriceUpdate[]): Promise<{ filled: number; expired: number }> {
    const filled: Fill[] = [];
    let expired = 0;
    for (const update of updates) {
      if (update.stale) continue;
      const [asset = '', fiat = ''] = update.symbol.split('/');
      // Orders that stay open (a customer on hold or unverified, a fill that failed) are passed over, not read
      // again: however many there are, the crossed orders behind them fill in this pass.
      let after: string | null = null;
      for (;;) {
        const crossed = await repository.listCrossedOrders(asset, fiat, update.mid, ordersPerRead, after);
        // Lanes by customer: no two lanes touch one customer's accounts, so they never wait on each other.
        const lanes = Array.from({ length: FILL_LANES }, (_, lane) =>
          crossed.filter((order) => order.user_id % FILL_LANES === lane).map((order) => order.id),
        ).filter((ids) => ids.length > 0);
        const fills = (await Promise.all(lanes.map((ids) => fillCrossed(ids)))).flat();
        filled.push(...fills);
        const last = crossed.at(-1);
        if (!last || crossed.length < ordersPerRead || stopping) break;
        after = last.seq;
      }
      // The orders not read stay open and crossed: the next leader's first tick fills them.
      if (stopping) break;
    }
    // The customers told once every crossed order is filled; their mails are the outbox sender's (decision 136).
    await afterFills(filled);
    const moved = new Set<number>();
    for (const { id } of stopping ? [] : await repository.listExpiredOrders(FILL_BATCH)) {
      const userId = await expireOrder(id);
      if (userId !== null) {
        expired += 1;
        moved.add(userId);
      }
    }
    if (moved.size > 0) {
      userEvents.moneyMoved([...moved]);
      userEvents.ordersChanged([...moved]);
    }
    return { filled: filled.length, expired };
  }

  return {
    /**
     * Runs a sweep for these prices; a sweep already running is followed by
     * one more with the latest prices, so ticks never queue up.
     */
    onPrices(updates: readonly PriceUpdate[]): Promise<void> {
      if (stopping) return Promise.resolve();
      latestUpdates = mergeUpdates(latestUpdates, updates);
      if (sweeping) {
        sweepAgain = true;
        return sweeping;
      }
      const run = async (): Promise<void> => {
        do {
          sweepAgain = false;
          const batch = latestUpdates;
          latestUpdates = [];
          await sweep(batch);
        } while (!stopping && (sweepAgain || latestUpdates.length > 0));
      };
      sweeping = run().finally(() => {
        sweeping = null;
      });
      return sweeping;
    },

    sweep,

    /**
     * At shutdown, before the database closes: no sweep starts, the running one ends after the fills in
     * flight commit (their mails still go), and this resolves when it has.
     */
    async stop(): Promise<void> {
      stopping = true;
      // A sweep that failed was logged by its caller: the shutdown goes on to close the database.
      await sweeping?.catch(() => undefined);
    },
  };
}
