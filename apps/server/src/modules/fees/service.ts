import type { AssetFees, Fees, TradingFeeTier } from '@florin/contracts';
import { formatAmount, TIER_VOLUME_BOUNDS, type AssetCode } from '@florin/domain';
import type { CryptoWithdrawalService } from '../crypto/withdrawals.js';
import type { FiatService } from '../fiat/service.js';
import type { FeeScheduleStore } from './schedule.js';

export type FeesServiceDeps = {
  fiat: Pick<FiatService, 'listFeeRules'>;
  cryptoWithdrawals: Pick<CryptoWithdrawalService, 'listFeeRules'>;
  feeSchedule: Pick<FeeScheduleStore, 'current'>;
};

export type FeesService = ReturnType<typeof createFeesService>;

type WithdrawalRules = { fee: bigint; minimum: bigint; feeFreeFrom: bigint | null };

function toAssetFees(asset: AssetCode, kind: AssetFees['kind'], rules: WithdrawalRules): AssetFees {
  return {
    asset,
    kind,
    // Neither module charges for a deposit: each credits the whole amount received.
    deposit_fee: formatAmount(0n, asset),
    withdraw_fee: formatAmount(rules.fee, asset),
    withdraw_fee_free_from: rules.feeFreeFrom === null ? null : formatAmount(rules.feeFreeFrom, asset),
    withdraw_min: formatAmount(rules.minimum, asset),
    // No setting refuses a large withdrawal; large ones wait for a second approval instead.
    withdraw_max: null,
  };
}

/**
 * The public fees page (spec 002 §9). It holds no figure of its own: the
 * withdrawal rules come from the fiat and crypto modules, which charge by
 * them, and the trading schedule from the one staff keep, by which every
 * trade's fee is worked out (feePercent).
 */
export function createFeesService(deps: FeesServiceDeps) {
  return {
    async getFees(): Promise<Fees> {
      const fiat = await deps.fiat.listFeeRules();
      const coins = await deps.cryptoWithdrawals.listFeeRules();
      const schedule = await deps.feeSchedule.current();
      const trading: TradingFeeTier[] = TIER_VOLUME_BOUNDS.map((band) => ({
        tier: band.tier,
        volume_from: formatAmount(band.from, 'GBP'),
        // The tier table's bound: above Tier 4's, staff agree a Custom plan.
        volume_to: formatAmount(band.to ?? band.tableTo, 'GBP'),
        instant_percent: schedule[1][band.tier],
        trading_percent: schedule[2][band.tier],
      }));
      return {
        assets: [
          ...fiat.map((rules) => toAssetFees(rules.currency, 'fiat', rules)),
          ...coins.map((rules) => toAssetFees(rules.asset, 'coin', { ...rules, feeFreeFrom: null })),
        ],
        trading,
      };
    },
  };
}
