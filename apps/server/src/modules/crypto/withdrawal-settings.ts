import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_WITHDRAW_TEXTS,
  type CoinId,
  type CryptoAsset,
  type CryptoWithdrawalSettings,
} from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { asAsset, coins, type Answer } from './shared.js';
import type { CryptoWithdrawalServiceDeps } from './withdrawal-context.js';
import { createPayoutRepository, type PayoutLimits } from './withdrawal-payout-repository.js';
import type { WithdrawCoinRules } from './withdrawal-repository.js';

type PayoutLimitsBody = {
  auto_payout: boolean;
  max_per_withdrawal: string | null;
  daily_total: string | null;
  hot_wallet_ceiling: string | null;
};

/** Minor units of a limit typed in coins, as the column keeps them; 422 beyond the coin's decimals. */
function unitsOf(text: string, asset: CryptoAsset, field: string, name = 'the limit'): string {
  try {
    return parseAmount(text, asset).toString();
  } catch {
    throw new AppError('VALIDATION_FAILED', undefined, {
      [field]: [`Enter ${name} with at most the decimals ${asset} has.`],
    });
  }
}

function unitsOrNull(text: string | null, asset: CryptoAsset, field: string): string | null {
  return text === null ? null : unitsOf(text, asset, field);
}

function coinsOrNull(units: string | null, asset: CryptoAsset): string | null {
  return units === null ? null : coins(units, asset);
}

/** Each coin's withdrawal fee and minimum, its daily limit and whether whitelisted addresses skip review. */
export function createWithdrawalSettings(deps: CryptoWithdrawalServiceDeps) {
  const { db, repository } = deps;
  const payoutRepository = createPayoutRepository(db);

  function toSettings(coin: WithdrawCoinRules, limits: PayoutLimits): CryptoWithdrawalSettings {
    const asset = asAsset(coin.asset);
    return {
      coin_id: coinIdOfAsset(asset),
      asset,
      daily_limit: coin.withdraw_daily_limit === null ? null : coins(coin.withdraw_daily_limit, asset),
      auto_approve_whitelisted: coin.auto_approve_whitelisted,
      wallet: deps.wallets[asset].kind,
      payout: {
        hot_wallet: deps.hotWallets?.[asset] !== undefined,
        auto_payout: limits.auto_payout,
        max_per_withdrawal: coinsOrNull(limits.payout_max_per_withdrawal, asset),
        daily_total: coinsOrNull(limits.payout_daily_total, asset),
        hot_wallet_ceiling: coinsOrNull(limits.hot_wallet_ceiling, asset),
      },
    };
  }

  /**
   * Every active coin's withdrawal fee and minimum, as request() charges
   * them, for the public fees page (modules/fees). The daily limit is no
   * maximum: beyond it a withdrawal waits for a second approval.
   */
  async function listFeeRules(): Promise<{ asset: CryptoAsset; fee: bigint; minimum: bigint }[]> {
    const rows = await repository.listCoins();
    return rows
      .filter((row) => row.active && row.asset in deps.wallets)
      .map((row) => ({
        asset: asAsset(row.asset),
        fee: BigInt(row.withdraw_fee),
        minimum: BigInt(row.amount_min),
      }));
  }

  async function settingsOf(coin: WithdrawCoinRules, executor = db): Promise<CryptoWithdrawalSettings> {
    const limits = await payoutRepository.findLimits(coin.asset, executor);
    if (!limits) throw new AppError('NOT_FOUND');
    return toSettings(coin, limits);
  }

  async function listSettings(): Promise<{ data: CryptoWithdrawalSettings[] }> {
    const rows = await repository.listCoins();
    const coins = rows.filter((row) => row.asset in deps.wallets);
    return { data: await Promise.all(coins.map((coin) => settingsOf(coin))) };
  }

  async function updateSettings(
    actor: AuditActor,
    coinId: CoinId,
    body: { daily_limit: string; auto_approve_whitelisted: boolean; payout?: PayoutLimitsBody },
  ): Promise<Answer<CryptoWithdrawalSettings>> {
    const asset = assetOfCoinId(coinId);
    const limit = unitsOf(body.daily_limit, asset, 'daily_limit', 'the daily limit');
    const payout = body.payout && {
      auto_payout: body.payout.auto_payout,
      payout_max_per_withdrawal: unitsOrNull(
        body.payout.max_per_withdrawal,
        asset,
        'payout.max_per_withdrawal',
      ),
      payout_daily_total: unitsOrNull(body.payout.daily_total, asset, 'payout.daily_total'),
      hot_wallet_ceiling: unitsOrNull(body.payout.hot_wallet_ceiling, asset, 'payout.hot_wallet_ceiling'),
    };
    const after = await db.transaction().execute(async (trx) => {
      const before = await repository.findCoin(asset, trx);
      if (!before) throw new AppError('NOT_FOUND');
      const beforeSettings = await settingsOf(before, trx);
      await repository.updateCoinSettings(trx, asset, {
        withdraw_daily_limit: limit,
        auto_approve_whitelisted: body.auto_approve_whitelisted,
      });
      if (payout) await payoutRepository.updateLimits(trx, asset, payout);
      const after = await settingsOf((await repository.findCoin(asset, trx)) as WithdrawCoinRules, trx);
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.withdrawal_settings_updated',
        targetType: 'coin',
        targetId: coinId,
        before: beforeSettings,
        after,
      });
      return after;
    });
    return { data: after, message: CRYPTO_WITHDRAW_TEXTS.settingsSaved };
  }

  return { listFeeRules, listSettings, updateSettings };
}
