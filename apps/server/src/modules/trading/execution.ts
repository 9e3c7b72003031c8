import type { Kysely } from 'kysely';
import { AppError, TRADING_TEXTS, type TradeSide } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import type { Posting } from '../../ledger/index.js';
import { isOverSourceOfWealthThreshold } from '../trading-volume/service.js';
import type { OrderRow, Trader, TradeRow } from './repository.js';
import { asAsset, money, orderRefused, symbolOf, userRef, type TradingServiceDeps } from './shared.js';

/** One trade as priced, whichever flow priced it: the journal and the trades row are written from it. */
export type Execution = {
  trader: Trader;
  kind: TradeRow['kind'];
  side: TradeSide;
  asset: string;
  fiat: string;
  price: string;
  quantity: bigint;
  notional: bigint;
  fee: bigint;
  total: bigint;
  /** What the trade is worth in pence (gbpValueOf), fixed when it is priced. */
  gbpValue: bigint;
  feePercent: string;
  quoteId?: string;
  order?: OrderRow;
  idempotencyKey?: string;
  requestHash?: string;
};

const inventoryRef = (asset: string) => ({ asset: asAsset(asset), kind: 'inventory' as const });
const feeRevenueRef = (asset: string) => ({ asset: asAsset(asset), kind: 'fee_revenue' as const });

/** LEDGER.md's trade: the customer's fiat and coin against the house's inventory, the fee to revenue. */
function tradePostings(input: {
  userId: number;
  side: TradeSide;
  asset: string;
  fiat: string;
  quantity: bigint;
  notional: bigint;
  fee: bigint;
}): Posting[] {
  const { userId, asset, fiat, quantity, fee } = input;
  const value = input.notional;
  const postings: Posting[] =
    input.side === 'buy'
      ? [
          { account: userRef(userId, fiat), amount: -(value + fee) },
          { account: inventoryRef(fiat), amount: value },
          { account: inventoryRef(asset), amount: -quantity },
          { account: userRef(userId, asset), amount: quantity },
        ]
      : [
          { account: userRef(userId, asset), amount: -quantity },
          { account: inventoryRef(asset), amount: quantity },
          { account: inventoryRef(fiat), amount: -value },
          { account: userRef(userId, fiat), amount: value - fee },
        ];
  if (fee > 0n) postings.push({ account: feeRevenueRef(fiat), amount: fee });
  return postings;
}

/** What every execution's journal says about it. */
export function journalOf(input: Execution) {
  return {
    kind: input.order ? ('limit_order_fill' as const) : ('trade' as const),
    reference: input.order ? `order:${input.order.id}` : input.quoteId ? `quote:${input.quoteId}` : undefined,
    metadata: { side: input.side, price: input.price, symbol: symbolOf(input.asset, input.fiat) },
    postings: tradePostings({ userId: input.trader.id, ...input }),
  };
}

/** The trades row of an execution, but for its journal's id (written with the journal, or added by the fills). */
export function tradeRowOf(input: Execution): Omit<TradeRow, 'id' | 'created_at' | 'journal_id'> {
  return {
    user_id: input.trader.id,
    kind: input.kind,
    side: input.side,
    asset: input.asset,
    fiat: input.fiat,
    price: input.price,
    quantity: input.quantity.toString(),
    notional: input.notional.toString(),
    fee: input.fee.toString(),
    total: input.total.toString(),
    fee_percent: input.feePercent,
    gbp_value: input.gbpValue.toString(),
    quote_id: input.quoteId ?? null,
    order_id: input.order?.id ?? null,
    idempotency_key: input.idempotencyKey ?? null,
    request_hash: input.requestHash ?? null,
  };
}

/** What a trade's confirmation mail says, whichever flow made the trade. */
export function tradeMailOf(
  trader: Pick<Trader, 'first_name'>,
  trade: {
    side: TradeSide;
    asset: string;
    fiat: string;
    price: string;
    quantity: bigint | string;
    total: bigint | string;
  },
) {
  return {
    firstName: trader.first_name,
    side: trade.side,
    quantity: money(trade.quantity, trade.asset),
    asset: trade.asset,
    price: trade.price,
    fiat: trade.fiat,
    total: money(trade.total, trade.fiat),
  };
}

/** Writes an instant or market trade, and what follows every trade's commit. */
export function createExecution(deps: TradingServiceDeps) {
  const { repository, ledger, notifier, userEvents, log } = deps;

  /**
   * One instant or market execution: its journal, its trades row and its mail (for the outbox's sender, issue 43)
   * written by one statement. A trade never commits without its mail, unless the customer turned trade mail off.
   */
  async function execute(trx: Kysely<DB>, input: Execution): Promise<TradeRow & { yearVolume: bigint }> {
    const journal = {
      ...journalOf(input),
      idempotencyKey: input.quoteId
        ? `trade:quote:${input.quoteId}`
        : `trade:${input.trader.id}:${input.idempotencyKey ?? ''}`,
    };
    const mail = await notifier.statementsFor(
      trx,
      input.trader,
      'trade_executed',
      tradeMailOf(input.trader, input),
    );
    try {
      const { trade, yearVolume } = await ledger.postJournalWithin(journal, (call) =>
        repository.insertTrade(trx, tradeRowOf(input), { journal: call, alsoWrite: mail }),
      );
      return { ...trade, yearVolume };
    } catch (error) {
      if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
        throw orderRefused(TRADING_TEXTS.insufficientFunds);
      throw error;
    }
  }

  /** After the trade's commit; its mail is the outbox sender's (execute wrote it). */
  async function afterTrade(
    trader: Trader,
    trade: { yearVolume: bigint },
    /** Read with the trade's lock when it could be (mayBeAskedByThresholdFact); unknown, the check decides. */
    mayBeAsked = true,
  ): Promise<void> {
    // First: the pages told of the trade read the user again, and should find the reset it may bring. A year
    // total the trade left under the threshold cannot bring one, nor a trade of a customer who answered Yes
    // (issue 43: no statement after most trades).
    if (mayBeAsked && isOverSourceOfWealthThreshold(trade.yearVolume)) await checkSourceOfWealth([trader.id]);
    userEvents.moneyMoved([trader.id]);
    userEvents.ordersChanged([trader.id]);
  }

  /** The trades have committed whatever this finds: a failure is logged, and the customer's next trade checks again. */
  async function checkSourceOfWealth(userIds: readonly number[]): Promise<void> {
    try {
      await deps.sourceOfWealth.resetSourceOfWealthOverThreshold(userIds);
    } catch (error) {
      log.error({ err: error, userIds }, 'source-of-wealth threshold check failed');
    }
  }

  return { execute, afterTrade, checkSourceOfWealth };
}

export type ExecutionFlow = ReturnType<typeof createExecution>;
