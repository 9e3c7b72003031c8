import {
  AppError,
  FIAT_TEXTS,
  listFiatDeposits,
  readPayerAccount,
  type AdminFiatDeposit,
  type DepositBankInfo,
  type FiatCurrency,
  type Page,
} from '@florin/contracts';
import { isLive, parseAmount } from '@florin/domain';
import { readPage } from '../../http/pages.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { DepositRow } from './deposit-repository.js';
import type { TransferReceiver } from './incoming-transfers.js';
import {
  asCurrency,
  bankRef,
  money,
  requireCustomer,
  suspenseRef,
  userRef,
  type Answer,
  type FiatServiceDeps,
} from './shared.js';

function toAdminDeposit(row: DepositRow): AdminFiatDeposit {
  return {
    id: row.id,
    currency: asCurrency(row.currency),
    bank_transaction_id: row.bank_transaction_id,
    amount: money(row.amount, row.currency),
    payer_name: row.payer_name,
    payer_sort_code: row.payer_sort_code,
    payer_account_number: row.payer_account_number,
    payer_iban: row.payer_iban,
    payer_bic: row.payer_bic,
    reference: row.reference,
    value_date: row.value_date,
    source: row.source,
    status: row.status,
    suspense_reason: row.suspense_reason,
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    resolution_note: row.resolution_note,
    created_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

/**
 * Money in: the bank details a customer pays to, transfers finance records by hand, and the suspense
 * list, whose transfers staff assign to a customer or return to the payer.
 */
export function createDeposits(
  deps: Pick<FiatServiceDeps, 'db' | 'repository' | 'ledger'>,
  transfers: TransferReceiver,
) {
  const { db, repository, ledger } = deps;
  const { receiveTransfer, queueCreditMail, afterCredit } = transfers;

  async function requireDeposit(id: string): Promise<DepositRow> {
    const row = await repository.findDeposit(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  return {
    /**
     * Only to a live customer not on hold (spec 001: others cannot deposit): a transfer from anyone else
     * would only wait in suspense for staff, as crypto addresses are not shown to them either.
     */
    async getDepositInfo(userId: number): Promise<DepositBankInfo> {
      const customer = await requireCustomer(repository, userId);
      if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
      const settings = await repository.listSettings();
      const gbp = settings.find((row) => row.currency === 'GBP');
      return {
        'Account Name': gbp?.account_name ?? '',
        'Account Number': gbp?.account_number ?? '',
        'Sort Code': gbp?.sort_code ?? '',
        Bank: gbp?.bank_name ?? '',
        reference: customer.user_identification,
        international: settings
          .filter((row) => row.currency !== 'GBP')
          .map((row) => ({
            currency: asCurrency(row.currency),
            company_name: row.account_name,
            bic: row.bic,
            iban: row.iban,
          })),
      };
    },

    // ---- back office: incoming transfers ----

    async recordDeposit(
      actor: AuditActor,
      body: {
        currency: FiatCurrency;
        amount: string;
        payer_name: string;
        reference: string;
        bank_transaction_id: string;
        value_date?: string | null;
        payer_sort_code?: string | null;
        payer_account_number?: string | null;
        payer_iban?: string | null;
        payer_bic?: string | null;
      },
    ) {
      const payer = readPayerAccount({
        sort_code: body.payer_sort_code,
        account_number: body.payer_account_number,
        iban: body.payer_iban,
        bic: body.payer_bic,
      });
      // The contract checked these already; a reading that fails here is a caller that skipped it.
      if (!payer.ok)
        throw new AppError('VALIDATION_FAILED', undefined, { [`payer_${payer.field}`]: [payer.message] });
      const { outcome, depositId } = await receiveTransfer(actor, {
        currency: body.currency,
        amount: parseAmount(body.amount, body.currency),
        payerName: body.payer_name,
        payerAccount: payer.account,
        reference: body.reference,
        bankTransactionId: body.bank_transaction_id,
        valueDate: body.value_date ?? null,
        source: 'manual',
      });
      const message =
        outcome === 'credited'
          ? FIAT_TEXTS.depositCredited
          : outcome === 'suspense'
            ? FIAT_TEXTS.depositSuspense
            : FIAT_TEXTS.depositDuplicate;
      return { data: { outcome, deposit: toAdminDeposit(await requireDeposit(depositId)) }, message };
    },

    async listDeposits(
      page: number,
      status?: 'credited' | 'suspense' | 'returned',
    ): Promise<Page<AdminFiatDeposit>> {
      return readPage({
        page,
        path: listFiatDeposits.path,
        filters: { status },
        count: () => repository.countDeposits(status),
        list: (limit, offset) => repository.listDepositsPage(status, limit, offset),
        toItem: toAdminDeposit,
      });
    },

    async assignDeposit(
      actor: AuditActor,
      id: string,
      userId: number,
      reason: string,
    ): Promise<Answer<AdminFiatDeposit>> {
      const { customer, mail } = await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', FIAT_TEXTS.depositNotInSuspense);
        const target = await repository.findCustomer(userId, trx);
        if (!target)
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [FIAT_TEXTS.customerNotFound] });
        if (!isLive(target))
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [FIAT_TEXTS.customerNotLive] });
        const value = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `fiat_deposit_assign:${id}`,
          kind: 'fiat_deposit',
          reference: `fiat_deposit:${id}`,
          metadata: { from: 'suspense', staff_id: actor.staffId },
          postings: [
            { account: suspenseRef(deposit.currency), amount: -value },
            { account: userRef(userId, deposit.currency), amount: value },
          ],
        });
        await repository.resolveDeposit(trx, id, {
          status: 'credited',
          user_id: userId,
          resolved_by: actor.staffId,
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.deposit_assigned',
          targetType: 'fiat_deposit',
          targetId: id,
          before: { status: 'suspense', user_id: deposit.user_id },
          after: { status: 'credited', user_id: userId, reason },
        });
        return { customer: target, mail: await queueCreditMail(trx, target, value, deposit.currency) };
      });
      await afterCredit(customer, mail);
      return { data: toAdminDeposit(await requireDeposit(id)), message: FIAT_TEXTS.depositAssigned };
    },

    async returnDeposit(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminFiatDeposit>> {
      await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', FIAT_TEXTS.depositNotInSuspense);
        const value = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `fiat_deposit_return:${id}`,
          kind: 'fiat_deposit',
          reference: `fiat_deposit:${id}`,
          metadata: { returned: true, staff_id: actor.staffId },
          postings: [
            { account: suspenseRef(deposit.currency), amount: -value },
            { account: bankRef(deposit.currency), amount: value },
          ],
        });
        await repository.resolveDeposit(trx, id, {
          status: 'returned',
          resolved_by: actor.staffId,
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.deposit_returned',
          targetType: 'fiat_deposit',
          targetId: id,
          before: { status: 'suspense' },
          after: { status: 'returned', reason },
        });
      });
      return { data: toAdminDeposit(await requireDeposit(id)), message: FIAT_TEXTS.depositReturned };
    },
  };
}
