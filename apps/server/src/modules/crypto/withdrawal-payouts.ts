import {
  AppError,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  type AdminCryptoWithdrawal,
} from '@florin/contracts';
import type { Kysely } from 'kysely';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { transition } from '../../lifecycle.js';
import type { Posting } from '../../ledger/index.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { asAsset, coins, custodyRef, feeRef, gbpValueMetadata, userRef, type Answer } from './shared.js';
import { refuseWhilePaidAutomatically } from './withdrawal-auto-payouts.js';
import type { CryptoWithdrawalServiceDeps, WithdrawalContext } from './withdrawal-context.js';
import type { CryptoWithdrawalRow } from './withdrawal-repository.js';

/**
 * An approved withdrawal is paid out: signed (cold storage) or broadcast (hot wallet), its hold posted
 * through the ledger, and marked confirmed once on the chain.
 */
export function createWithdrawalPayouts(deps: CryptoWithdrawalServiceDeps, context: WithdrawalContext) {
  const { db, repository, ledger, notifier, userEvents } = deps;
  const { adminAnswer, lockFor, checkNotOnHold, customerOf } = context;

  /** The unsigned transaction of an approved withdrawal, for the cold-storage signer; none while on hold. */
  async function signingRequest(id: string) {
    const row = await repository.find(id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'approved') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notApproved);
    refuseWhilePaidAutomatically(row);
    if ((await repository.findCustomer(row.user_id))?.block_status === ON_HOLD)
      throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.customerOnHold);
    // Exported for the offline signer: the payout job leaves it to staff from now on.
    if (!row.payout_by_staff) await repository.update(db, id, { payout_by_staff: true });
    const net = BigInt(row.amount) - BigInt(row.fee);
    return {
      data: {
        withdrawal_id: row.id,
        asset: asAsset(row.asset),
        address: row.address,
        tag: row.tag,
        amount: coins(net, row.asset),
        amount_units: net.toString(),
        created_at: row.created_at.toISOString(),
      },
    };
  }

  /**
   * Posts an approved withdrawal's hold and marks it sent with the txid `broadcast` gives, inside
   * `trx` (LEDGER.md: the customer's coins leave custody, net to the address and the fee to revenue).
   * The broadcast comes last, so that nothing after it can fail but the commit.
   */
  async function recordSent(
    trx: Kysely<DB>,
    actor: AuditActor,
    before: CryptoWithdrawalRow,
    broadcast: () => Promise<string>,
  ) {
    const id = before.id;
    // Decided before the coins move: nothing after the broadcast may refuse.
    const status = transition(CRYPTO_WITHDRAWAL_TRANSITIONS, before.status, 'sent');
    const asset = asAsset(before.asset);
    const amount = BigInt(before.amount);
    const fee = BigInt(before.fee);
    const postings: Posting[] = [
      { account: userRef(before.user_id, asset), amount: -amount },
      { account: custodyRef(asset), amount: amount - fee },
    ];
    if (fee > 0n) postings.push({ account: feeRef(asset), amount: fee });
    const { journalId } = await ledger.postHold(trx, {
      holdId: before.hold_id,
      amount,
      idempotencyKey: `crypto_withdrawal_sent:${id}`,
      kind: 'crypto_withdrawal',
      reference: `crypto_withdrawal:${id}`,
      metadata: {
        fee: coins(fee, asset),
        address: before.address,
        // What the coins leaving the balance were worth when they left, as a deposit records it.
        ...gbpValueMetadata(deps.gbpRate(asset), asset, amount),
      },
      postings,
    });
    const sentTxid = await broadcast();
    const after = await repository.update(trx, id, {
      status,
      journal_id: journalId,
      txid: sentTxid,
      sent_by: actor.staffId,
      sent_at: new Date(),
    });
    await recordAudit(trx, {
      ...actor,
      action: 'crypto.withdrawal_sent',
      targetType: 'crypto_withdrawal',
      targetId: id,
      before: { status: before.status },
      after: { status: 'sent', txid: sentTxid, journal_id: journalId },
    });
    const customer = await customerOf(after, trx);
    const mail =
      customer &&
      (await notifier.queue(trx, customer, 'crypto_withdrawal_sent', {
        firstName: customer.first_name,
        receive: coins(BigInt(after.amount) - BigInt(after.fee), after.asset),
        asset: after.asset,
        address: after.address,
        txid: after.txid ?? '',
      }));
    return { row: after, mail };
  }

  /**
   * Sends an approved withdrawal: the hot wallet (simulated chain) broadcasts
   * it, or staff give the txid the cold-storage signer returned. The hold is
   * posted in the same transaction.
   */
  async function send(
    actor: AuditActor,
    id: string,
    txid: string | null | undefined,
  ): Promise<Answer<AdminCryptoWithdrawal>> {
    const { row, mail } = await db.transaction().execute(async (trx) => {
      const before = await lockFor(trx, id, ['approved'], CRYPTO_WITHDRAW_TEXTS.notApproved);
      refuseWhilePaidAutomatically(before);
      const asset = asAsset(before.asset);
      const wallet = deps.wallets[asset];
      // The hot wallet would send the coins now; a cold-storage txid records coins signed and sent already.
      if (wallet.kind === 'simulated') await checkNotOnHold(trx, before);
      if (wallet.kind === 'cold_storage' && !txid)
        throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.txidRequired);
      const net = BigInt(before.amount) - BigInt(before.fee);
      return recordSent(trx, actor, before, async () =>
        wallet.kind === 'simulated'
          ? wallet.send({ asset, address: before.address, tag: before.tag, amount: net }, trx)
          : (txid as string),
      );
    });
    userEvents.moneyMoved([row.user_id]);
    await notifier.deliver(mail);
    return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.sent);
  }

  async function confirm(actor: AuditActor, id: string): Promise<Answer<AdminCryptoWithdrawal>> {
    const row = await db.transaction().execute(async (trx) => {
      const before = await lockFor(trx, id, ['sent'], CRYPTO_WITHDRAW_TEXTS.notSent);
      const after = await repository.update(trx, id, {
        status: transition(CRYPTO_WITHDRAWAL_TRANSITIONS, before.status, 'confirmed'),
        confirmed_by: actor.staffId,
        confirmed_at: new Date(),
      });
      await recordAudit(trx, {
        ...actor,
        action: 'crypto.withdrawal_confirmed',
        targetType: 'crypto_withdrawal',
        targetId: id,
        before: { status: before.status },
        after: { status: 'confirmed' },
      });
      return after;
    });
    userEvents.moneyMoved([row.user_id]);
    return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.confirmed);
  }

  return { signingRequest, send, confirm, recordSent };
}
