import { ADMIN_TRADING_TEXTS, AppError, type AdminCoin, type CoinId } from '@florin/contracts';
import { formatAmount, type AssetCode } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { COIN_COLUMNS, CoinRow } from './admin-repository.js';
import {
  checkRevision,
  parseAmounts,
  percentOf,
  refuse,
  withRevision,
  type TradingAdminDeps,
} from './admin-shared.js';
import type { Answer } from './shared.js';

function toCoin(row: Pick<CoinRow, (typeof COIN_COLUMNS)[number]>): Omit<AdminCoin, 'revision'> {
  const asset = row.asset as AssetCode;
  return {
    coin_id: row.coin_id as CoinId,
    asset: row.asset as AdminCoin['asset'],
    name: row.name,
    active: row.active,
    primary: row.primary === 1,
    ask_spread: percentOf(row.ask_spread) ?? '0',
    bid_spread: percentOf(row.bid_spread) ?? '0',
    platform_fee: percentOf(row.platform_fee),
    amount_min: formatAmount(BigInt(row.amount_min), asset),
    amount_max: row.amount_max === null ? null : formatAmount(BigInt(row.amount_max), asset),
    withdraw_fee: formatAmount(BigInt(row.withdraw_fee), asset),
    disable_buy: row.disable_buy,
    disable_sell: row.disable_sell,
    disable_deposit: row.disable_deposit,
    disable_withdraw: row.disable_withdraw,
    confirmations: row.confirmations,
  };
}

/** Each coin's spreads, fees, limits and switches, as finance edits them. */
export function createCoinsAdmin(deps: TradingAdminDeps) {
  const { db, repository, market } = deps;

  return {
    async listCoins(): Promise<{ data: AdminCoin[] }> {
      return { data: (await repository.listCoins()).map((row) => withRevision(toCoin(row))) };
    },

    async updateCoin(
      actor: AuditActor,
      coinId: CoinId,
      body: {
        active: boolean;
        primary: boolean;
        ask_spread: string;
        bid_spread: string;
        platform_fee: string | null;
        amount_min: string;
        amount_max: string | null;
        withdraw_fee: string;
        disable_buy: boolean;
        disable_sell: boolean;
        disable_deposit: boolean;
        disable_withdraw: boolean;
        confirmations: number;
        revision: string;
      },
    ): Promise<Answer<AdminCoin>> {
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCoin(trx, coinId);
        if (!before) throw new AppError('NOT_FOUND');
        checkRevision(toCoin(before), body.revision);
        const asset = before.asset as AssetCode;
        const amounts = parseAmounts(asset, {
          amount_min: body.amount_min,
          amount_max: body.amount_max,
          withdraw_fee: body.withdraw_fee,
        });
        const amountMin = amounts.amount_min ?? 0n;
        if (amounts.amount_max !== null && amounts.amount_max < amountMin)
          throw refuse('amount_max', ADMIN_TRADING_TEXTS.amountMaxBelowMin);
        // amount_min is also the smallest withdrawal; a free withdrawal needs no minimum.
        const coinFee = amounts.withdraw_fee ?? 0n;
        if (coinFee > 0n && coinFee >= amountMin)
          throw refuse('withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin);
        const row = await repository.updateCoin(trx, coinId, {
          active: body.active,
          primary: body.primary ? 1 : 0,
          ask_spread: body.ask_spread,
          bid_spread: body.bid_spread,
          platform_fee: body.platform_fee,
          amount_min: amountMin.toString(),
          amount_max: amounts.amount_max === null ? null : amounts.amount_max.toString(),
          withdraw_fee: (amounts.withdraw_fee ?? 0n).toString(),
          disable_buy: body.disable_buy,
          disable_sell: body.disable_sell,
          disable_deposit: body.disable_deposit,
          disable_withdraw: body.disable_withdraw,
          confirmations: body.confirmations,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'trading.coin_updated',
          targetType: 'coin',
          targetId: coinId,
          before: toCoin(before),
          after: toCoin(row),
        });
        return row;
      });
      // Spreads live in the market's prices: read them again now rather than within its cache time.
      await market.refreshCoins();
      return { data: withRevision(toCoin(after)), message: ADMIN_TRADING_TEXTS.coinSaved };
    },
  };
}
