import {
  AppError,
  CRYPTO_DEPOSIT_TRANSITIONS,
  CRYPTO_TEXTS,
  type AdminCryptoDeposit,
} from '@florin/contracts';
import { isLive } from '@florin/domain';
import { transition } from '../../lifecycle.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { CryptoServiceDeps, DepositContext } from './deposit-context.js';
import { toAdminDeposit } from './deposit-history.js';
import type { AdminCryptoDepositRow } from './repository.js';
import { custodyRef, suspenseRef, userRef, type Answer } from './shared.js';

/** Staff resolve a deposit in suspense: credit it to the customer it was for, or return it to custody. */
export function createDepositSuspense(deps: CryptoServiceDeps, context: DepositContext) {
  const { db, repository, ledger } = deps;
  const { gbpValueOf, queueCreditMail, afterCredit } = context;

  async function requireAdminDeposit(id: string): Promise<AdminCryptoDepositRow> {
    const row = await repository.findAdminDeposit(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function assignDeposit(
    actor: AuditActor,
    id: string,
    userId: number,
    reason: string,
  ): Promise<Answer<AdminCryptoDeposit>> {
    const { customer, mail } = await db.transaction().execute(async (trx) => {
      const deposit = await repository.lockDeposit(trx, id);
      if (!deposit) throw new AppError('NOT_FOUND');
      if (deposit.status !== 'suspense') throw new AppError('CONFLICT', CRYPTO_TEXTS.depositNotInSuspense);
      const target = await repository.findCustomer(userId, trx);
      if (!target)
        throw new AppError('VALIDATION_FAILED', undefined, { user_id: [CRYPTO_TEXTS.customerNotFound] });
      if (!isLive(target))
        throw new AppError('VALIDATION_FAILED', undefined, { user_id: [CRYPTO_TEXTS.customerNotLive] });
      const amount = BigInt(deposit.amount);
      await ledger.postJournal(trx, {
        idempotencyKey: `crypto_deposit_assign:${id}`,
        kind: 'crypto_deposit',
        reference: `crypto_deposit:${id}`,
        metadata: {
          from: 'suspense',
          staff_id: actor.staffId,
          txid: deposit.txid,
          ...gbpValueOf(deposit.asset, amount),
        },
        postings: [
          { account: suspenseRef(deposit.asset), amount: -amount },
          { account: userRef(userId, deposit.asset), amount },
        ],
      });
      const now = new Date();
      await repository.updateDeposit(trx, id, {
        status: transition(CRYPTO_DEPOSIT_TRANSITIONS, deposit.status, 'credited'),
        user_id: userId,
        credited_at: now,
        resolved_by: actor.staffId ?? undefined,
        resolved_at: now,
        resolution_note: reason,
      });
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.deposit_assigned',
        targetType: 'crypto_deposit',
        targetId: id,
        before: { status: 'suspense', user_id: deposit.user_id },
        after: { status: 'credited', user_id: userId, reason },
      });
      return { customer: target, mail: await queueCreditMail(trx, deposit, target) };
    });
    await afterCredit(customer, mail);
    return { data: toAdminDeposit(await requireAdminDeposit(id)), message: CRYPTO_TEXTS.depositAssigned };
  }

  async function returnDeposit(
    actor: AuditActor,
    id: string,
    reason: string,
  ): Promise<Answer<AdminCryptoDeposit>> {
    await db.transaction().execute(async (trx) => {
      const deposit = await repository.lockDeposit(trx, id);
      if (!deposit) throw new AppError('NOT_FOUND');
      if (deposit.status !== 'suspense') throw new AppError('CONFLICT', CRYPTO_TEXTS.depositNotInSuspense);
      const amount = BigInt(deposit.amount);
      await ledger.postJournal(trx, {
        idempotencyKey: `crypto_deposit_return:${id}`,
        kind: 'crypto_deposit',
        reference: `crypto_deposit:${id}`,
        metadata: { returned: true, staff_id: actor.staffId, txid: deposit.txid },
        postings: [
          { account: suspenseRef(deposit.asset), amount: -amount },
          { account: custodyRef(deposit.asset), amount },
        ],
      });
      await repository.updateDeposit(trx, id, {
        status: transition(CRYPTO_DEPOSIT_TRANSITIONS, deposit.status, 'returned'),
        resolved_by: actor.staffId ?? undefined,
        resolved_at: new Date(),
        resolution_note: reason,
      });
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.deposit_returned',
        targetType: 'crypto_deposit',
        targetId: id,
        before: { status: 'suspense' },
        after: { status: 'returned', reason },
      });
    });
    return { data: toAdminDeposit(await requireAdminDeposit(id)), message: CRYPTO_TEXTS.depositReturned };
  }

  return { assignDeposit, returnDeposit };
}
