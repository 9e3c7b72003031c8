import type { Kysely } from 'kysely';
import type { FiatCurrency, PayerAccount } from '@florin/contracts';
import { isLive } from '@florin/domain';
import type { DB, FiatSuspenseReason } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { QueuedMail } from '../notifications/service.js';
import { isFromRegisteredAccount, isPayerTheCustomer, referencesIn } from './matching.js';
import type { BankAccountRow, FiatCustomer } from './repository.js';
import { bankRef, money, suspenseRef, userRef, type FiatServiceDeps } from './shared.js';

export type IncomingTransfer = {
  currency: FiatCurrency;
  amount: bigint;
  payerName: string;
  /** The account the money came from, normalised (readPayerAccount); null when the source did not say. */
  payerAccount: PayerAccount | null;
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
   * the reference to a customer, the payer to their name and, when the
   * transfer says which account it came from, that account to the one they
   * registered (decision 132); books it to the customer (credited, and the
   * account verified by the money) or to suspense, in one transaction.
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
      const registered =
        customer && transfer.payerAccount
          ? await repository.findBankAccountByCurrency(customer.id, transfer.currency, trx)
          : undefined;
      const fromRegistered =
        transfer.payerAccount !== null &&
        registered !== undefined &&
        isFromRegisteredAccount(transfer.payerAccount, registered);
      // Only money from the registered account may be credited straight away: it is where withdrawals go.
      if (!reason && transfer.payerAccount && !fromRegistered) reason = 'unknown_account';
      const depositId = await repository.insertDeposit(trx, {
        currency: transfer.currency,
        bank_transaction_id: transfer.bankTransactionId,
        amount: transfer.amount.toString(),
        payer_name: transfer.payerName,
        payer_sort_code: transfer.payerAccount?.sortCode ?? null,
        payer_account_number: transfer.payerAccount?.accountNumber ?? null,
        payer_iban: transfer.payerAccount?.iban ?? null,
        payer_bic: transfer.payerAccount?.bic ?? null,
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
      // Money proves the account only when the transfer named it; a name alone verifies nothing.
      const verified =
        !reason && fromRegistered && registered ? await verifyByDeposit(trx, registered) : false;
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
          from_registered_account: fromRegistered,
          bank_account_verified: verified,
        },
      });
      return reason
        ? { outcome: 'suspense' as const, depositId }
        : {
            outcome: 'credited' as const,
            depositId,
            credited: customer,
            mail: customer && (await queueCreditMail(trx, customer, transfer.amount, transfer.currency)),
          };
    });
    if (result.credited) await afterCredit(result.credited, result.mail);
    return { outcome: result.outcome, depositId: result.depositId, credited: result.credited };
  }

  /**
   * DECISIONS.md: a matched deposit in the customer's name from their registered account verifies it
   * (decision 132); only the details as first given, though (decision 080): changed details are left to
   * finance. Whether it verified the account now.
   */
  async function verifyByDeposit(trx: Kysely<DB>, account: BankAccountRow): Promise<boolean> {
    const changedSinceAdded = account.details_changed_at > account.created_at;
    if (account.verified_at || changedSinceAdded) return false;
    await repository.updateBankAccount(trx, account.id, { verified_at: new Date(), verified_by: 'deposit' });
    return true;
  }

  /** In the credit's transaction, so a credit never commits without its mail (nor a mail without it). */
  function queueCreditMail(
    trx: Kysely<DB>,
    customer: FiatCustomer,
    amount: bigint,
    currency: string,
  ): Promise<QueuedMail | undefined> {
    return notifier.queue(trx, customer, 'fiat_deposit_credited', {
      firstName: customer.first_name,
      amount: money(amount, currency),
      currency,
    });
  }

  /** After the credit's commit. */
  async function afterCredit(customer: FiatCustomer, mail: QueuedMail | undefined): Promise<void> {
    userEvents.moneyMoved([customer.id]);
    await notifier.deliver(mail);
  }

  return { receiveTransfer, queueCreditMail, afterCredit };
}
