import { AppError, type CryptoAsset } from '@florin/contracts';
import { ON_HOLD } from '../../db/schema.js';
import { SYSTEM_ACTOR } from '../audit/service.js';
import type { HotWallet } from './chains/hot-wallets.js';
import type { CryptoWithdrawalServiceDeps } from './withdrawal-context.js';
import { createPayoutRepository, type PayoutLimits } from './withdrawal-payout-repository.js';
import type { createWithdrawalPayouts } from './withdrawal-payouts.js';
import type { CryptoWithdrawalRow } from './withdrawal-repository.js';

/** Staff may not send, export or reject what the hot wallet has signed: it may be on its way already. */
export const PAID_AUTOMATICALLY = 'The hot wallet is paying this withdrawal; it cannot be changed by hand.';

export function refuseWhilePaidAutomatically(row: CryptoWithdrawalRow): void {
  if (row.payout_raw !== null) throw new AppError('CONFLICT', PAID_AUTOMATICALLY);
}

/** Why a withdrawal was left to staff, or null when the job may send it now. */
export function outsideLimits(
  limits: PayoutLimits,
  net: bigint,
  paidToday: bigint,
  balance: bigint,
): 'off' | 'withdrawal' | 'day' | 'ceiling' | 'balance' | null {
  const {
    auto_payout,
    payout_max_per_withdrawal: max,
    payout_daily_total: day,
    hot_wallet_ceiling: ceiling,
  } = limits;
  if (!auto_payout || max === null || day === null || ceiling === null) return 'off';
  if (net > BigInt(max)) return 'withdrawal';
  if (paidToday + net > BigInt(day)) return 'day';
  // An overfull hot wallet is a loss waiting for a stolen node: nothing more is sent until staff move coins out.
  if (balance > BigInt(ceiling)) return 'ceiling';
  if (balance < net) return 'balance';
  return null;
}

export type PayoutSummary = { signed: number; sent: number; confirmed: number; leftToStaff: number };

/**
 * The payout job (decision 131), run by the leading instance: each approved withdrawal of a coin with
 * a hot wallet and automatic payouts on, within the coin's limits, is signed by the node, stored,
 * broadcast and posted as sent; then watched until it has the coin's confirmations. One coin's
 * payouts go one at a time, so a payout not yet broadcast is always finished before the next is signed.
 */
export function createAutoPayouts(
  deps: CryptoWithdrawalServiceDeps,
  payouts: ReturnType<typeof createWithdrawalPayouts>,
) {
  const { db, repository, notifier, userEvents, clock } = deps;
  const payoutRepository = createPayoutRepository(db);

  /** Broadcasts a signed payout and posts it as sent, or leaves it signed for the next run. */
  async function broadcastSigned(wallet: HotWallet, id: string): Promise<boolean> {
    const outcome = await db.transaction().execute(async (trx) => {
      const before = await payoutRepository.claim(trx, id);
      if (
        !before ||
        before.status !== 'approved' ||
        before.payout_raw === null ||
        before.payout_txid === null
      )
        return undefined;
      // Compliance put a hold on meanwhile: the signed payout waits, unbroadcast, until it is lifted.
      if ((await repository.lockCustomer(trx, before.user_id))?.block_status === ON_HOLD) return undefined;
      const signed = { txid: before.payout_txid, raw: before.payout_raw };
      return payouts.recordSent(trx, SYSTEM_ACTOR, before, async () => {
        await wallet.broadcast(signed);
        return signed.txid;
      });
    });
    if (!outcome) return false;
    userEvents.moneyMoved([outcome.row.user_id]);
    await notifier.deliver(outcome.mail);
    return true;
  }

  /** Signs one approved withdrawal within the limits and stores it; 'stop' when the coin's limits are reached. */
  async function signWithinLimits(
    wallet: HotWallet,
    id: string,
  ): Promise<'signed' | 'staff' | 'skip' | 'stop'> {
    return db.transaction().execute(async (trx) => {
      const row = await payoutRepository.claim(trx, id);
      if (!row || row.status !== 'approved' || row.payout_by_staff || row.payout_raw !== null) return 'skip';
      const limits = await payoutRepository.findLimits(row.asset, trx);
      if (!limits) return 'skip';
      // Off for the coin: the node is not asked for anything.
      if (!limits.auto_payout) return 'stop';
      const customer = await repository.lockCustomer(trx, row.user_id);
      if (!customer || customer.block_status === ON_HOLD) return 'skip';
      const net = BigInt(row.amount) - BigInt(row.fee);
      const now = clock.now();
      const outside = outsideLimits(
        limits,
        net,
        await payoutRepository.signedToday(trx, row.asset, now),
        await wallet.balance(),
      );
      if (outside === 'withdrawal') {
        // Above what the job may ever send: staff pay it from cold storage, as before.
        await repository.update(trx, id, { payout_by_staff: true });
        return 'staff';
      }
      if (outside !== null) return 'stop';
      const signed = await wallet.sign({
        idempotencyKey: `crypto_withdrawal:${id}`,
        address: row.address,
        tag: row.tag,
        amount: net,
      });
      await repository.update(trx, id, {
        payout_raw: signed.raw,
        payout_txid: signed.txid,
        payout_signed_at: now,
      });
      return 'signed';
    });
  }

  /**
   * Marks the job's sent payouts confirmed once they have the coin's confirmations. A payout that
   * failed or expired on the chain fails the run, but only after the others were looked at, so it
   * does not keep later payouts from being confirmed.
   */
  async function confirmSent(wallet: HotWallet, asset: CryptoAsset, summary: PayoutSummary): Promise<void> {
    const limits = await payoutRepository.findLimits(asset);
    const failures: unknown[] = [];
    for (const row of await payoutRepository.listUnconfirmed(asset)) {
      let confirmations: number | null = null;
      try {
        if (row.payout_txid !== null && row.payout_raw !== null)
          confirmations = await wallet.confirmations(row.payout_txid, row.payout_raw);
      } catch (error) {
        failures.push(error);
        continue;
      }
      if (confirmations === null || confirmations < (limits?.confirmations ?? 1)) continue;
      await payouts.confirm(SYSTEM_ACTOR, row.id);
      summary.confirmed += 1;
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${asset} payouts failed on the chain`);
  }

  async function payCoin(asset: CryptoAsset, wallet: HotWallet, summary: PayoutSummary): Promise<void> {
    for (const candidate of await payoutRepository.listSendable(asset)) {
      if (candidate.payout_raw === null) {
        const step = await signWithinLimits(wallet, candidate.id);
        if (step === 'stop') break;
        if (step === 'staff') summary.leftToStaff += 1;
        if (step !== 'signed') continue;
        summary.signed += 1;
      }
      // A failed broadcast throws: the payout stays signed and this coin waits for the next run.
      if (await broadcastSigned(wallet, candidate.id)) summary.sent += 1;
    }
    await confirmSent(wallet, asset, summary);
  }

  /** One run over every coin with a hot wallet; a coin whose node fails does not hold up the others. */
  async function payOutOnce(): Promise<PayoutSummary> {
    const summary: PayoutSummary = { signed: 0, sent: 0, confirmed: 0, leftToStaff: 0 };
    const failures: unknown[] = [];
    for (const [asset, wallet] of Object.entries(deps.hotWallets ?? {}) as [CryptoAsset, HotWallet][]) {
      try {
        await payCoin(asset, wallet, summary);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'automatic crypto payouts failed');
    return summary;
  }

  /** At shutdown, once no run is in flight: the hot wallets' open connections close. */
  async function closeHotWallets(): Promise<void> {
    await Promise.all(Object.values(deps.hotWallets ?? {}).map(async (wallet) => wallet.close?.()));
  }

  return { payOutOnce, closeHotWallets };
}
