import {
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  listCryptoPayoutQueue,
  type AdminCryptoWithdrawal,
  type CryptoWithdrawalStatus,
  type Page,
} from '@florin/contracts';
import { readPage } from '../../http/pages.js';
import { transition } from '../../lifecycle.js';
import { requireSecondPairOfEyes } from '../../payouts.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { coins, type Answer } from './shared.js';
import { refuseWhilePaidAutomatically } from './withdrawal-auto-payouts.js';
import type { CryptoWithdrawalServiceDeps, WithdrawalContext } from './withdrawal-context.js';
import type { CryptoWithdrawalRow } from './withdrawal-repository.js';

/** Staff work the queue: approve a withdrawal (twice beyond the daily limit) or reject it, voiding its hold. */
export function createWithdrawalReview(deps: CryptoWithdrawalServiceDeps, context: WithdrawalContext) {
  const { db, repository, ledger, notifier, userEvents } = deps;
  const { toAdmin, adminAnswer, lockFor, checkNotOnHold, customerOf } = context;

  async function listQueue(
    page: number,
    status: 'open' | CryptoWithdrawalStatus,
  ): Promise<Page<AdminCryptoWithdrawal>> {
    return readPage({
      page,
      path: listCryptoPayoutQueue.path,
      filters: { status },
      count: () => repository.countAdmin(status),
      list: (limit, offset) => repository.listAdmin(status, limit, offset),
      toItem: toAdmin,
    });
  }

  /** Approves a pending withdrawal; beyond the daily limit it takes two different staff members. */
  async function approve(actor: AuditActor, id: string): Promise<Answer<AdminCryptoWithdrawal>> {
    const message = await db.transaction().execute(async (trx) => {
      const row = await lockFor(trx, id, ['pending'], CRYPTO_WITHDRAW_TEXTS.notPending);
      await checkNotOnHold(trx, row);
      const now = new Date();
      let after: CryptoWithdrawalRow;
      let message: string = CRYPTO_WITHDRAW_TEXTS.approved;
      if (row.needs_second_approval && row.approved_by === null) {
        after = await repository.update(trx, id, { approved_by: actor.staffId, approved_at: now });
        message = CRYPTO_WITHDRAW_TEXTS.firstApproval;
      } else if (row.needs_second_approval) {
        requireSecondPairOfEyes(row.approved_by, actor, CRYPTO_WITHDRAW_TEXTS.alreadyApprovedByYou);
        after = await repository.update(trx, id, {
          status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, row.status, 'approved'),
          second_approved_by: actor.staffId,
          second_approved_at: now,
        });
      } else {
        after = await repository.update(trx, id, {
          status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, row.status, 'approved'),
          approved_by: actor.staffId,
          approved_at: now,
        });
      }
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.withdrawal_approved',
        targetType: 'crypto_withdrawal',
        targetId: id,
        before: { status: row.status, approved_by: row.approved_by },
        after: {
          status: after.status,
          approved_by: after.approved_by,
          second_approved_by: after.second_approved_by,
        },
      });
      return message;
    });
    return adminAnswer(id, message);
  }

  async function reject(
    actor: AuditActor,
    id: string,
    reason: string,
  ): Promise<Answer<AdminCryptoWithdrawal>> {
    const { row, mail } = await db.transaction().execute(async (trx) => {
      const before = await lockFor(trx, id, ['pending', 'approved'], CRYPTO_WITHDRAW_TEXTS.notOpen);
      refuseWhilePaidAutomatically(before);
      await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
      const after = await repository.update(trx, id, {
        status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, before.status, 'rejected'),
        rejected_by: actor.staffId,
        rejected_at: new Date(),
        reject_reason: reason,
      });
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.withdrawal_rejected',
        targetType: 'crypto_withdrawal',
        targetId: id,
        before: { status: before.status },
        after: { status: 'rejected', reason },
      });
      const customer = await customerOf(after, trx);
      const mail =
        customer &&
        (await notifier.queue(trx, customer, 'crypto_withdrawal_rejected', {
          firstName: customer.first_name,
          amount: coins(after.amount, after.asset),
          asset: after.asset,
          reason,
        }));
      return { row: after, mail };
    });
    userEvents.moneyMoved([row.user_id]);
    await notifier.deliver(mail);
    return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.rejected);
  }

  return { listQueue, approve, reject };
}
