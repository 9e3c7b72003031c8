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
import type { WithdrawCoinRules } from './withdrawal-repository.js';

/** Each coin's withdrawal fee and minimum, its daily limit and whether whitelisted addresses skip review. */
export function createWithdrawalSettings(deps: CryptoWithdrawalServiceDeps) {
  const { db, repository } = deps;

  function toSettings(coin: WithdrawCoinRules): CryptoWithdrawalSettings {
    const asset = asAsset(coin.asset);
    return {
      coin_id: coinIdOfAsset(asset),
      asset,
      daily_limit: coin.withdraw_daily_limit === null ? null : coins(coin.withdraw_daily_limit, asset),
      auto_approve_whitelisted: coin.auto_approve_whitelisted,
      wallet: deps.wallets[asset].kind,
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

  async function listSettings(): Promise<{ data: CryptoWithdrawalSettings[] }> {
    const rows = await repository.listCoins();
    return { data: rows.filter((row) => row.asset in deps.wallets).map(toSettings) };
  }

  async function updateSettings(
    actor: AuditActor,
    coinId: CoinId,
    body: { daily_limit: string; auto_approve_whitelisted: boolean },
  ): Promise<Answer<CryptoWithdrawalSettings>> {
    const asset = assetOfCoinId(coinId);
    let limit: bigint;
    try {
      limit = parseAmount(body.daily_limit, asset);
    } catch {
      throw new AppError('VALIDATION_FAILED', undefined, {
        daily_limit: [`Enter the daily limit with at most the decimals ${asset} has.`],
      });
    }
    const after = await db.transaction().execute(async (trx) => {
      const before = await repository.findCoin(asset, trx);
      if (!before) throw new AppError('NOT_FOUND');
      await repository.updateCoinSettings(trx, asset, {
        withdraw_daily_limit: limit.toString(),
        auto_approve_whitelisted: body.auto_approve_whitelisted,
      });
      const after = (await repository.findCoin(asset, trx)) as WithdrawCoinRules;
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.withdrawal_settings_updated',
        targetType: 'coin',
        targetId: coinId,
        before: toSettings(before),
        after: toSettings(after),
      });
      return after;
    });
    return { data: toSettings(after), message: CRYPTO_WITHDRAW_TEXTS.settingsSaved };
  }

  return { listFeeRules, listSettings, updateSettings };
}
