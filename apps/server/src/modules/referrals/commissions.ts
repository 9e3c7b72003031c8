import { type IncentivesPolicyName } from '@florin/contracts';
import { mulRatioFloor, parseRatio } from '@florin/domain';
import type { UnaccruedTrade } from './repository.js';
import { affiliateRef, REFERRAL_EXPENSE, type ReferralServiceDeps } from './shared.js';

/** The leading instance looks for referred customers' trades to credit this often. */
export const COMMISSION_ACCRUAL_INTERVAL_MS = 15_000;
const ACCRUAL_BATCH = 500;

/**
 * Whether the incentives policy lets this customer earn commission or use a
 * promo benefit. The default keeps every incentive away from UK retail
 * customers (no inducements to invest): only Corporate customers and
 * customers resident outside the UK. An unknown residence counts as the UK.
 */
export function isEligibleUnder(
  policy: IncentivesPolicyName,
  customer: { account_type: 'Individual' | 'Corporate' | null; country: string | null },
): boolean {
  if (policy === 'everyone') return true;
  if (policy === 'nobody') return false;
  return customer.account_type === 'Corporate' || (customer.country !== null && customer.country !== 'GB');
}

/** The commission on a fee: percent of it in pence, rounded down (the house never rounds against itself). */
export function commissionOn(feePence: bigint, percent: string): bigint {
  const ratio = parseRatio(percent);
  return mulRatioFloor(feePence, { numerator: ratio.numerator, denominator: ratio.denominator * 100n });
}

/** The trade's fee in pence: a GBP fee as it is, another fiat's at the trade's own gbp_value ÷ notional. */
export function feeInPence(trade: Pick<UnaccruedTrade, 'fiat' | 'fee' | 'notional' | 'gbp_value'>): bigint {
  const fee = BigInt(trade.fee);
  if (trade.fiat === 'GBP') return fee;
  const notional = BigInt(trade.notional);
  if (notional === 0n) return 0n;
  return (fee * BigInt(trade.gbp_value)) / notional;
}

/** Eligibility and the accrual of commission on referred customers' trades. */
export function createCommissions(deps: ReferralServiceDeps) {
  const { db, repository, ledger } = deps;

  async function accrueOne(trade: UnaccruedTrade): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const current = await repository.getPolicy(trx);
      const referrer = await repository.findCustomer(trade.referrer_user_id, trx);
      const feeGbp = feeInPence(trade);
      // Nothing for a trade made after the referrer's account closed or their termination took effect (judged
      // at the trade's time, so a backlog of earlier trades is still paid while they can claim it), nor for any
      // trade once their access has ended: they could never claim it.
      const isClosed =
        referrer !== undefined &&
        ((referrer.terminated_at !== null && referrer.terminated_at <= trade.created_at) ||
          (referrer.access_ends_at !== null && referrer.access_ends_at <= new Date()));
      const eligible = referrer !== undefined && isEligibleUnder(current.policy, referrer);
      const amount = eligible && !isClosed ? commissionOn(feeGbp, current.commission_percent) : 0n;
      const skipped = isClosed
        ? ('closed' as const)
        : !eligible
          ? ('policy' as const)
          : amount === 0n
            ? ('zero' as const)
            : null;
      let journalId: string | null = null;
      if (!skipped) {
        // One key per trade: a second run (or another instance) replays this journal, never repeats it.
        ({ journalId } = await ledger.postJournal(trx, {
          idempotencyKey: `referral_commission:trade:${trade.id}`,
          kind: 'affiliate_commission',
          reference: `trade:${trade.id}`,
          metadata: { referred_user_id: trade.user_id, fee_gbp: feeGbp, percent: current.commission_percent },
          postings: [
            { account: REFERRAL_EXPENSE, amount: -amount },
            { account: affiliateRef(trade.referrer_user_id), amount },
          ],
        }));
      }
      const inserted = await repository.insertCommission(trx, {
        trade_id: trade.id,
        referrer_user_id: trade.referrer_user_id,
        referred_user_id: trade.user_id,
        fee_gbp: feeGbp.toString(),
        commission_percent: current.commission_percent,
        amount: amount.toString(),
        skipped,
        journal_id: journalId,
      });
      return inserted !== undefined && skipped === null;
    });
  }

  return {
    isEligibleUnder,

    /** Whether the incentives policy lets this customer earn commission or use promo benefits now. */
    async isEligible(userId: number): Promise<boolean> {
      const customer = await repository.findCustomer(userId);
      if (!customer) return false;
      return isEligibleUnder((await repository.getPolicy(db)).policy, customer);
    },

    /**
     * Credits the referrers of every referred customer's trade not yet
     * accrued (the leading instance runs it every COMMISSION_ACCRUAL_INTERVAL_MS;
     * tests call it by hand). Durable: a trade's commission row and its
     * journal commit together, unique on the trade and on the journal key, so
     * a crash or a second run never credits a trade twice or misses one.
     * Returns how many trades were credited.
     */
    async accrueCommissions(): Promise<number> {
      let credited = 0;
      for (;;) {
        const trades = await repository.findUnaccruedTrades(ACCRUAL_BATCH);
        for (const trade of trades) if (await accrueOne(trade)) credited += 1;
        if (trades.length < ACCRUAL_BATCH) return credited;
      }
    },
  };
}
