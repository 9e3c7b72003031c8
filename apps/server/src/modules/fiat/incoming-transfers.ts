import type { Kysely } from 'kysely';
import type { FiatCurrency } from '@florin/contracts';
import { isLive } from '@florin/domain';
import type { DB, FiatSuspenseReason } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { isPayerTheCustomer, referencesIn } from './matching.js';
import type { FiatCustomer } from './repository.js';
import { bankRef, money, suspenseRef, userRef, type FiatServiceDeps } from './shared.js';

export type IncomingTransfer = {
  currency: FiatCurrency;
  amount: bigint;
  payerName: string;
  reference: string;
  bankTransactionId: string;
  valueDate: string | null;
  source: 'manual' | 'import';
};

export type TransferReceiver = ReturnType<typeof createTransferReceiver>;

/**
 * Books incoming bank transfers, whether finance records one by hand (deposits.ts) or imports a
 * statement (statement-import.ts): each is credited through the ledger once per bank transaction id.
 */
export function createTransferReceiver(
  deps: Pick<FiatServiceDeps, 'db' | 'repository' | 'ledger' | 'notifier' | 'userEvents'>,
) {
  const { db, repository, ledger, notifier, userEvents } = deps;

  /**
   * Receives one incoming transfer: claims its bank transaction id, matches
   * the reference to a customer and the payer to their name, and books it to
   * the customer (credited) or to suspense, in one transaction.
   */
  async function receiveTransfer(
    actor: AuditActor,
    transfer: IncomingTransfer,
  ): Promise<{ outcome: 'credited' | 'suspense' | 'duplicate'; depositId: string; credited?: FiatCustomer }> {
    const result = await db.transaction().execute(async (trx) => {
      const candidates = await repository.findCustomersByReferences(referencesIn(transfer.reference), trx);
      const customer = candidates.length === 1 ? candidates[0] : undefined;
      let reason: FiatSuspenseReason | null = null;
      if (!customer) reason = 'unmatched';
      else if (!isLive(customer)) reason = 'customer_not_live';
      else if (!isPayerTheCustomer(transfer.payerName, customer)) reason = 'name_mismatch';
      const depositId = await repository.insertDeposit(trx, {
        currency: transfer.currency,
        bank_transaction_id: transfer.bankTransactionId,
        amount: transfer.amount.toString(),
        payer_name: transfer.payerName,
        reference: transfer.reference,
        value_date: transfer.valueDate,
        source: transfer.source,
        status: reason ? 'suspense' : 'credited',
        suspense_reason: reason,
        user_id: customer?.id ?? null,
        recorded_by: actor.staffId,
      });
      if (!depositId) {
        const earlier = await repository.findDepositByTransaction(
          transfer.currency,
          transfer.bankTransactionId,
          trx,
        );
        return { outcome: 'duplicate' as const, depositId: earlier?.id ?? '' };
      }
      const to =
        reason || !customer ? suspenseRef(transfer.currency) : userRef(customer.id, transfer.currency);
      await ledger.postJournal(trx, {
        idempotencyKey: `fiat_deposit:${transfer.currency}:${transfer.bankTransactionId}`,
        kind: 'fiat_deposit',
        reference: `fiat_deposit:${depositId}`,
        metadata: { source: transfer.source, to: reason ? 'suspense' : 'customer' },
        postings: [
          { account: bankRef(transfer.currency), amount: -transfer.amount },
          { account: to, amount: transfer.amount },
        ],
      });
      if (!reason && customer) await verifyByDeposit(trx, customer.id, transfer.currency);
      await recordAudit(trx, {
        ...actor,
        action: 'fiat.deposit_recorded',
        targetType: 'fiat_deposit',
        targetId: depositId,
        after: {
          currency: transfer.currency,
          amount: transfer.amount,
          bank_transaction_id: transfer.bankTransactionId,
          status: reason ? 'suspense' : 'credited',
          suspense_reason: reason,
          user_id: customer?.id ?? null,
          source: transfer.source,
        },
      });
      return reason
        ? { outcome: 'suspense' as const, depositId }
        : { outcome: 'credited' as const, depositId, credited: customer };
    });
    if (result.credited) await afterCredit(result.credited, transfer.amount, transfer.currency);
    return result;
  }

  /**
   * DECISIONS.md: a matched deposit in the customer's name verifies their account in that currency;
   * only the details as first given, though. Changed details are left to finance: the customer's own
   * next top-up would otherwise vouch for whatever account a hijacked session put there.
   */
  async function verifyByDeposit(trx: Kysely<DB>, userId: number, currency: string): Promise<void> {
    const account = await repository.findBankAccountByCurrency(userId, currency, trx);
    const changedSinceAdded = account !== undefined && account.details_changed_at > account.created_at;
    if (account && !account.verified_at && !changedSinceAdded)
      await repository.updateBankAccount(trx, account.id, {
        verified_at: new Date(),
        verified_by: 'deposit',
      });
  }

  async function afterCredit(customer: FiatCustomer, amount: bigint, currency: string): Promise<void> {
    userEvents.moneyMoved([customer.id]);
    await notifier.notify(customer, 'fiat_deposit_credited', {
      firstName: customer.first_name,
      amount: money(amount, currency),
      currency,
    });
  }

  return { receiveTransfer, afterCredit };
}
