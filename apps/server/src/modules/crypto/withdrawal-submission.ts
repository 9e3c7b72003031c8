import {
  AppError,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  type CryptoWithdrawal,
  type CryptoWithdrawalStatus,
} from '@florin/contracts';
import { transition } from '../../lifecycle.js';
import { coins, type Answer } from './shared.js';
import {
  tagKey,
  toWithdrawal,
  type CryptoWithdrawalServiceDeps,
  type WithdrawalContext,
} from './withdrawal-context.js';

/** request-2fa's purpose for a crypto withdrawal (customers with e-mailed codes as their second factor). */
export const CRYPTO_WITHDRAW_2FA_PURPOSE = 'Crypto Withdraw(2fa)';

function refused(field: 'passcode', message: string): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

/**
 * A verified withdrawal goes to staff once the customer's 2FA code checks out: into the queue, with a
 * second approval beyond the coin's daily limit, or approved at once to a long-whitelisted address.
 */
export function createWithdrawalSubmission(deps: CryptoWithdrawalServiceDeps, context: WithdrawalContext) {
  const { db, repository, notifier, clock } = deps;
  const { requireCustomer, checkMayWithdraw, requireOwn } = context;

  /** crypto/withdraw: the 2FA code, then the staff queue (or approval at once, when staff allow it). */
  async function submit(
    userId: number,
    id: string,
    passcode: string | null | undefined,
  ): Promise<Answer<CryptoWithdrawal>> {
    const before = await requireOwn(userId, id);
    const queued: CryptoWithdrawalStatus[] = ['pending', 'approved', 'sent', 'confirmed'];
    if (queued.includes(before.status))
      return { data: toWithdrawal(before), message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested };
    if (before.status === 'awaiting_code') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notVerified);
    if (before.status !== 'verified') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
    const customer = await requireCustomer(userId);
    const factor = await deps.secondFactor.check(customer, passcode, CRYPTO_WITHDRAW_2FA_PURPOSE);
    if (factor === 'missing') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.passcodeRequired);
    if (factor === 'expired') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.codeExpired);
    if (factor === 'wrong') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.wrongPasscode);

    // DECISIONS.md: approval is automatic only to an address whitelisted over 24 hours ago, within the
    // limit, and only with the tag it was whitelisted with (address and tag are one destination).
    const saved = before.whitelisted_wallet_id
      ? await deps.savedAddresses.findWallet(userId, before.whitelisted_wallet_id)
      : undefined;
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await repository.lock(trx, id);
      if (!row) throw new AppError('NOT_FOUND');
      if (queued.includes(row.status)) return { row, mail: undefined };
      if (row.status !== 'verified') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
      const now = clock.now();
      if (row.verify_by <= now) throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
      const locked = await repository.lockCustomer(trx, userId);
      if (!locked) throw new AppError('UNAUTHENTICATED');
      const coin = await repository.findCoin(row.asset, trx);
      if (!coin) throw new AppError('NOT_FOUND');
      checkMayWithdraw(locked, coin);
      const today = await repository.withdrawnToday(trx, userId, row.asset, id, now);
      const limit = coin.withdraw_daily_limit === null ? null : BigInt(coin.withdraw_daily_limit);
      const overLimit = limit !== null && today + BigInt(row.amount) > limit;
      const autoApprove =
        coin.auto_approve_whitelisted &&
        !overLimit &&
        saved !== undefined &&
        saved.usable_from <= now &&
        tagKey(saved.tag) === tagKey(row.tag);
      const updated = await repository.update(trx, id, {
        status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, row.status, autoApprove ? 'approved' : 'pending'),
        requested_at: now,
        needs_second_approval: overLimit,
        auto_approved: autoApprove,
        approved_at: autoApprove ? now : null,
      });
      // Written with the request, so a server killed after the commit still sends it (the outbox's sender).
      const mail = await notifier.queue(trx, customer, 'crypto_withdrawal_requested', {
        firstName: customer.first_name,
        amount: coins(updated.amount, updated.asset),
        receive: coins(BigInt(updated.amount) - BigInt(updated.fee), updated.asset),
        asset: updated.asset,
        address: updated.address,
      });
      return { row: updated, mail };
    });
    await notifier.deliver(outcome.mail);
    return { data: toWithdrawal(outcome.row), message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested };
  }

  return { submit };
}
