import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  AppError,
  assetOfCoinId,
  AUTO_SELL_REFUSED_COINS,
  AUTO_TRADE_2FA_PURPOSE,
  AUTO_TRADE_MAX_ACTIVE,
  AUTO_TRADE_TEXTS,
  coinIdOfAsset,
  CoinIdSchema,
  CryptoAssetSchema,
  TradeFiatSchema,
  type AutoTradeItem,
  type AutoTradeType,
  type CoinId,
} from '@florin/contracts';
import { formatAmount, type AssetCode } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import type { DomainCheck } from '../../ledger/index.js';
import type { SecondFactor } from '../../security/second-factor.js';
import type { TradingService } from '../trading/service.js';
import type { InvestorService } from '../investor/service.js';
import type { AutoTradeRepository, AutoTradeRow, PendingDeposit } from './repository.js';

/** Deposits one run converts at most; the next run takes the rest. */
const RUN_BATCH = 200;
/** A conversion still pending this long was left by a run that stopped: its quote has long lapsed. */
const STALE_SECONDS = 60;
/** How often the leading instance looks for deposits to convert. */
export const AUTO_TRADE_INTERVAL_MS = 5_000;

export type AutoTradeServiceDeps = {
  db: Kysely<DB>;
  repository: AutoTradeRepository;
  trading: Pick<TradingService, 'quote' | 'executeQuote'>;
  secondFactor: Pick<SecondFactor, 'check'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The first-investment journey (issue 13): an auto buy waits until it is complete. */
  investor: Pick<InvestorService, 'assertMayInvest'>;
};

export type AutoTradeService = ReturnType<typeof createAutoTradeService>;

export type RunResult = { converted: number; skipped: number };

/** Spec 002 §5 refusals: the text, with its title in `data` for the screen's heading. */
function refused(
  code: 'VALIDATION_FAILED' | 'CONFLICT',
  field: 'coin_id' | 'passcode' | 'type',
  title: string,
  text: string,
): AppError {
  return new AppError(code, text, code === 'VALIDATION_FAILED' ? { [field]: [text] } : undefined, {
    title,
  });
}

function dayOf(date: Date): string {
  const dd = String(date.getUTCDate()).padStart(2, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${date.getUTCFullYear()}`;
}

function toItem(row: AutoTradeRow): AutoTradeItem {
  return {
    id: row.id,
    type: row.type,
    coin_id: coinIdOfAsset(CryptoAssetSchema.parse(row.asset)),
    _created_str: dayOf(row.created_at),
    _coin_str: `${row.coin_name} (${row.asset})`,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Auto trade: a customer's standing instruction, at most one per type. A job
 * on the leading instance (and callable from tests and a dev route) finds
 * credited deposits that arrived after an auto trade was made and converts
 * each once through the trading service's own quote and execution, so each
 * conversion is an ordinary trade, in the history and e-mailed. Every
 * deposit looked at gets one row saying what happened.
 */
export function createAutoTradeService(deps: AutoTradeServiceDeps) {
  const { db, repository, trading, secondFactor, log } = deps;

  function checkOwnId(userId: number, id: number): void {
    // Another customer's id answers like an unknown one.
    if (userId !== id) throw new AppError('NOT_FOUND');
  }

  /** Quotes and executes one deposit's conversion; the trade id, or why it was skipped. */
  async function convert(
    conversionId: string,
    autoTrade: { user_id: number; type: AutoTradeType; asset: string },
    deposit: { asset: string; amount: string },
  ): Promise<{ status: 'converted'; trade_id: string } | { status: 'skipped'; reason: string }> {
    const coinId = coinIdOfAsset(CryptoAssetSchema.parse(autoTrade.asset));
    const amount = formatAmount(BigInt(deposit.amount), deposit.asset as AssetCode);
    let body: Parameters<TradingService['quote']>[1];
    if (autoTrade.type === 'buy') {
      const currency = TradeFiatSchema.safeParse(deposit.asset);
      if (!currency.success) return { status: 'skipped', reason: `${deposit.asset} cannot buy coins.` };
      // The whole deposit, the fee included: the quote takes what the customer pays.
      body = { side: 'buy', coin_id: coinId, currency: currency.data, cost: amount };
    } else {
      body = { side: 'sell', coin_id: coinId, currency: 'gbp', quantity: amount };
    }
    const { data: quote } = await trading.quote(autoTrade.user_id, body);
    if (BigInt(quote.quantity.replace('.', '')) === 0n)
      return { status: 'skipped', reason: 'The deposit is too small to buy any of the coin.' };
    await repository.setQuote(conversionId, quote.id);
    const { data: trade } = await trading.executeQuote(autoTrade.user_id, quote.id);
    return { status: 'converted', trade_id: trade.id };
  }

  async function settle(
    conversionId: string,
    autoTrade: { user_id: number; type: AutoTradeType; asset: string },
    deposit: { asset: string; amount: string },
  ): Promise<'converted' | 'skipped' | 'retry'> {
    try {
      const outcome = await convert(conversionId, autoTrade, deposit);
      await repository.finish(conversionId, {
        status: outcome.status,
        trade_id: outcome.status === 'converted' ? outcome.trade_id : null,
        reason: outcome.status === 'skipped' ? outcome.reason : null,
      });
      return outcome.status;
    } catch (error) {
      // Prices paused: left pending, and tried again once the claim is stale.
      if (error instanceof AppError && (error.code === 'PRICES_STALE' || error.code === 'UNAVAILABLE'))
        return 'retry';
      // A rule of the trading service (too small, coin switched off, not live, balance gone): its own words.
      const reason = error instanceof AppError ? error.message : AUTO_TRADE_TEXTS.serverError;
      if (!(error instanceof AppError))
        log.error({ err: error, conversionId }, 'auto trade conversion failed');
      await repository.finish(conversionId, { status: 'skipped', trade_id: null, reason });
      return 'skipped';
    }
  }

  return {
    async list(userId: number, id: number): Promise<{ data: AutoTradeItem[] }> {
      checkOwnId(userId, id);
      return { data: (await repository.listActive(userId)).map(toItem) };
    },

    async create(
      userId: number,
      id: number,
      body: { coin_id?: string | null; passcode?: string | null; type: AutoTradeType },
    ): Promise<{ data: AutoTradeItem[]; message: string }> {
      checkOwnId(userId, id);
      const customer = await repository.findCustomer(userId);
      if (!customer) throw new AppError('UNAUTHENTICATED');
      if (body.type === 'buy') await deps.investor.assertMayInvest(userId);
      // Spec 002 §5, in the order the screen checks them.
      if (!body.coin_id)
        throw refused(
          'VALIDATION_FAILED',
          'coin_id',
          AUTO_TRADE_TEXTS.coinNotSelectedTitle,
          AUTO_TRADE_TEXTS.coinNotSelected,
        );
      const coin = CoinIdSchema.safeParse(body.coin_id.toLowerCase());
      const refusedCoins: readonly CoinId[] = body.type === 'sell' ? AUTO_SELL_REFUSED_COINS : [];
      if (!coin.success || refusedCoins.includes(coin.data))
        throw refused(
          'VALIDATION_FAILED',
          'coin_id',
          AUTO_TRADE_TEXTS.coinNotAllowedTitle,
          AUTO_TRADE_TEXTS.coinNotAllowed,
        );
      if (!body.passcode)
        throw refused(
          'VALIDATION_FAILED',
          'passcode',
          AUTO_TRADE_TEXTS.passcodeMissingTitle,
          AUTO_TRADE_TEXTS.passcodeMissing,
        );
      const checkCount = (active: readonly AutoTradeRow[]) => {
        if (active.length >= AUTO_TRADE_MAX_ACTIVE)
          throw refused('CONFLICT', 'type', AUTO_TRADE_TEXTS.tooManyTitle, AUTO_TRADE_TEXTS.tooMany);
        if (active.some((row) => row.type === body.type))
          throw refused('CONFLICT', 'type', AUTO_TRADE_TEXTS.sameTypeTitle, AUTO_TRADE_TEXTS.sameType);
      };
      // The limits first: a code is not spent on a request that cannot succeed.
      checkCount(await repository.listActive(userId));
      // DECISIONS.md: an instruction that moves money unattended needs a second factor set up.
      if (!customer.has_totp && !customer.platform_2fa_mobile)
        throw refused(
          'VALIDATION_FAILED',
          'passcode',
          AUTO_TRADE_TEXTS.secondFactorNeededTitle,
          AUTO_TRADE_TEXTS.secondFactorNeeded,
        );
      const factor = await secondFactor.check(customer, body.passcode, AUTO_TRADE_2FA_PURPOSE);
      if (factor === 'expired' || factor === 'wrong' || factor === 'missing') {
        const text = factor === 'expired' ? AUTO_TRADE_TEXTS.codeExpired : AUTO_TRADE_TEXTS.wrongPasscode;
        throw new AppError('INVALID_PASSCODE', text, { passcode: [text] });
      }
      await db.transaction().execute(async (trx) => {
        await repository.lockCustomer(trx, userId);
        checkCount(await repository.listActive(userId, trx));
        await repository.insert(trx, { user_id: userId, type: body.type, asset: assetOfCoinId(coin.data) });
      });
      return {
        data: (await repository.listActive(userId)).map(toItem),
        message: AUTO_TRADE_TEXTS.created,
      };
    },

    async cancel(userId: number, autoTradeId: number): Promise<{ message: string }> {
      if (!(await repository.cancel(userId, autoTradeId)))
        throw new AppError('NOT_FOUND', AUTO_TRADE_TEXTS.notFound);
      return { message: AUTO_TRADE_TEXTS.cancelled };
    },

    /**
     * One pass of the job: finishes conversions a stopped run left, then
     * converts each credited deposit not yet looked at. Safe to run on
     * several instances at once and as often as wanted: the unique row per
     * deposit lets exactly one run convert it.
     */
    async runOnce(): Promise<RunResult> {
      const result: RunResult = { converted: 0, skipped: 0 };
      const count = (outcome: 'converted' | 'skipped' | 'retry') => {
        if (outcome !== 'retry') result[outcome] += 1;
      };
      for (const stale of await repository.reclaimStale(STALE_SECONDS, RUN_BATCH)) {
        const tradeId = stale.quote_id ? await repository.findTradeOfQuote(stale.quote_id) : undefined;
        if (tradeId) {
          await repository.finish(stale.id, { status: 'converted', trade_id: tradeId, reason: null });
          count('converted');
          continue;
        }
        const autoTrade = await repository.findAutoTrade(stale.auto_trade_id);
        const deposit = await repository.findDeposit(stale.source, stale.deposit_id);
        if (!autoTrade || !deposit) continue;
        count(await settle(stale.id, autoTrade, deposit));
      }
      const pending: PendingDeposit[] = await repository.listPendingDeposits(RUN_BATCH);
      for (const deposit of pending) {
        const conversionId = await repository.claim(deposit);
        if (!conversionId) continue;
        count(await settle(conversionId, deposit, { asset: deposit.deposit_asset, amount: deposit.amount }));
      }
      return result;
    },
  };
}

/**
 * Invariant 8 for auto trade: every converted deposit points at an instant
 * trade of its customer, of the auto trade's coin and side, that no other
 * conversion claims (each deposit converted into exactly one trade).
 */
export const autoTradeDomainCheck: DomainCheck = {
  name: 'auto-trade',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'auto trade conversion ' || c.id || ' does not match trade ' || coalesce(c.trade_id, '-') AS message
      FROM auto_trade_conversions c
      JOIN auto_trades a ON a.id = c.auto_trade_id
      LEFT JOIN trades t ON t.id::text = c.trade_id
      WHERE c.status = 'converted'
        AND (t.id IS NULL OR t.user_id <> c.user_id OR t.kind <> 'instant' OR t.asset <> a.asset
          OR t.side <> a.type OR (c.quote_id IS NOT NULL AND t.quote_id IS DISTINCT FROM c.quote_id))
      UNION ALL
      SELECT 'trade ' || trade_id || ' is claimed by ' || count(*) || ' auto trade conversions'
      FROM auto_trade_conversions
      WHERE trade_id IS NOT NULL
      GROUP BY trade_id
      HAVING count(*) > 1`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
