import {
  AppError,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  type CryptoWithdrawal,
} from '@florin/contracts';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import type { Answer } from './shared.js';
import { OPEN_FOR_CUSTOMER, toWithdrawal, type CryptoWithdrawalServiceDeps } from './withdrawal-context.js';

/** Still waiting for the customer's code or 2FA: what may expire. */
const EXPIRABLE = statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'expired');

/**
 * A withdrawal that ends before staff take it: its customer cancels it, or nobody confirms it within its
 * 30 minutes and it expires. Either way its hold is released.
 */
export function createWithdrawalCancellation(deps: CryptoWithdrawalServiceDeps) {
  const { db, repository, ledger, userEvents, clock } = deps;

  /** Voids the hold of a withdrawal nobody confirmed in time. */
  async function expire(id: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const row = await repository.lock(trx, id);
      if (!row || !EXPIRABLE.includes(row.status) || row.verify_by > clock.now()) return;
      await ledger.releaseHold(trx, { holdId: row.hold_id, outcome: 'expired' });
      await repository.update(trx, id, {
        status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, row.status, 'expired'),
      });
    });
  }

  async function expireOverdue(userId?: number): Promise<number> {
    const rows = await repository.listUnconfirmedPastDue(clock.now(), userId);
    for (const row of rows) await expire(row.id);
    if (rows.length > 0) userEvents.moneyMoved([...new Set(rows.map((row) => row.user_id))]);
    return rows.length;
  }

  async function cancel(userId: number, id: string): Promise<Answer<CryptoWithdrawal>> {
    const row = await db.transaction().execute(async (trx) => {
      const before = await repository.lock(trx, id);
      if (!before || before.user_id !== userId) throw new AppError('NOT_FOUND');
      if (!OPEN_FOR_CUSTOMER.includes(before.status))
        throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notCancellable);
      await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
      return repository.update(trx, id, {
        status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, before.status, 'cancelled'),
        cancelled_at: new Date(),
      });
    });
    userEvents.moneyMoved([userId]);
    return { data: toWithdrawal(row), message: CRYPTO_WITHDRAW_TEXTS.cancelled };
  }

  return { expire, expireOverdue, cancel };
}

export type WithdrawalCancellation = ReturnType<typeof createWithdrawalCancellation>;
