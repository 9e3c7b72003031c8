import type { Kysely } from 'kysely';
import {
  AppError,
  FIAT_TEXTS,
  FIAT_WITHDRAWAL_TRANSITIONS,
  listPayoutQueue,
  type AdminFiatWithdrawal,
  type FiatCurrency,
  type FiatWithdrawalStatus,
  type Page,
  type PayoutFile,
} from '@florin/contracts';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { Posting } from '../../ledger/index.js';
import { csvLine } from '../../http/csv.js';
import { readPage } from '../../http/pages.js';
import { transition } from '../../lifecycle.js';
import { requireSecondPairOfEyes } from '../../payouts.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import {
  bankRef,
  endingOf,
  feeRef,
  money,
  toWithdrawal,
  userRef,
  type Answer,
  type FiatServiceDeps,
} from './shared.js';
import type { AdminWithdrawalRow, WithdrawalRow } from './withdrawal-repository.js';

function toAdminWithdrawal(row: AdminWithdrawalRow): AdminFiatWithdrawal {
  return {
    ...toWithdrawal(row),
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: `${row.first_name} ${row.last_name}`,
    email: row.email,
    account_number: row.account_number,
    sort_code: row.sort_code,
    iban: row.iban,
    bic: row.bic,
    needs_second_approval: row.needs_second_approval,
    approved_by: row.approved_by_email,
    approved_at: row.approved_at?.toISOString() ?? null,
    paid_by: row.paid_by_email,
    payment_reference: row.payment_reference,
    rejected_by: row.rejected_by_email,
    exported_at: row.exported_at?.toISOString() ?? null,
    customer_on_hold: row.block_status === ON_HOLD,
  };
}

function auditWithdrawal(row: WithdrawalRow) {
  return {
    status: row.status,
    amount: row.amount,
    fee: row.fee,
    currency: row.currency,
    user_id: row.user_id,
  };
}

/**
 * The back office's payout queue: finance approves large withdrawals (a second staff member pays
 * them), exports the bank's payout file, and marks each withdrawal paid (the hold is posted) or
 * rejects it (the hold is voided).
 */
export function createPayouts(
  deps: Pick<FiatServiceDeps, 'db' | 'repository' | 'ledger' | 'notifier' | 'userEvents'>,
) {
  const { db, repository, ledger, notifier, userEvents } = deps;

  async function requireAdminWithdrawal(id: string): Promise<AdminWithdrawalRow> {
    const row = await repository.findAdminWithdrawal(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Locks an open withdrawal for a staff decision; 404 when there is none, 409 when it is decided. */
  async function lockOpenWithdrawal(trx: Kysely<DB>, id: string): Promise<WithdrawalRow> {
    const row = await repository.lockWithdrawal(trx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending' && row.status !== 'approved')
      throw new AppError('CONFLICT', FIAT_TEXTS.notOpen);
    return row;
  }

  return {
    async listWithdrawals(
      page: number,
      status: 'open' | FiatWithdrawalStatus,
    ): Promise<Page<AdminFiatWithdrawal>> {
      return readPage({
        page,
        path: listPayoutQueue.path,
        filters: { status },
        count: () => repository.countWithdrawals(status),
        list: (limit, offset) => repository.listAdminWithdrawals(status, limit, offset),
        toItem: toAdminWithdrawal,
      });
    },

    async approveWithdrawal(actor: AuditActor, id: string): Promise<Answer<AdminFiatWithdrawal>> {
      await db.transaction().execute(async (trx) => {
        const before = await lockOpenWithdrawal(trx, id);
        if (!before.needs_second_approval) throw new AppError('CONFLICT', FIAT_TEXTS.approvalNotNeeded);
        if (before.status === 'approved') throw new AppError('CONFLICT', FIAT_TEXTS.alreadyApproved);
        const customer = await repository.lockCustomer(trx, before.user_id);
        if (customer?.block_status === ON_HOLD) throw new AppError('CONFLICT', FIAT_TEXTS.customerOnHold);
        await repository.updateWithdrawal(trx, id, {
          status: transition(FIAT_WITHDRAWAL_TRANSITIONS, before.status, 'approved'),
          approved_by: actor.staffId,
          approved_at: new Date(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_approved',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(before),
          after: { status: 'approved' },
        });
      });
      return {
        data: toAdminWithdrawal(await requireAdminWithdrawal(id)),
        message: FIAT_TEXTS.withdrawalApproved,
      };
    },

    async markWithdrawalPaid(
      actor: AuditActor,
      id: string,
      paymentReference: string,
    ): Promise<Answer<AdminFiatWithdrawal>> {
      const { row: before, mail } = await db.transaction().execute(async (trx) => {
        const row = await lockOpenWithdrawal(trx, id);
        if (row.needs_second_approval) {
          if (row.status !== 'approved') throw new AppError('CONFLICT', FIAT_TEXTS.needsApproval);
          requireSecondPairOfEyes(row.approved_by, actor, FIAT_TEXTS.approverCannotPay);
        }
        // Locked until the commit: a hold compliance puts on now waits for this payout, or stops it. A
        // withdrawal in a payout file is being paid by the bank already: recording that stays possible.
        const customer = await repository.lockCustomer(trx, row.user_id);
        if (customer?.block_status === ON_HOLD && row.exported_at === null)
          throw new AppError('CONFLICT', FIAT_TEXTS.customerOnHold);
        const amount = BigInt(row.amount);
        const fee = BigInt(row.fee);
        const postings: Posting[] = [
          { account: userRef(row.user_id, row.currency), amount: -amount },
          { account: bankRef(row.currency), amount: amount - fee },
        ];
        if (fee > 0n) postings.push({ account: feeRef(row.currency), amount: fee });
        const { journalId } = await ledger.postHold(trx, {
          holdId: row.hold_id,
          amount,
          idempotencyKey: `fiat_withdrawal_paid:${id}`,
          kind: 'fiat_withdrawal',
          reference: `fiat_withdrawal:${id}`,
          metadata: { payment_reference: paymentReference, fee: money(fee, row.currency) },
          postings,
        });
        await repository.updateWithdrawal(trx, id, {
          status: transition(FIAT_WITHDRAWAL_TRANSITIONS, row.status, 'paid'),
          journal_id: journalId,
          paid_by: actor.staffId,
          paid_at: new Date(),
          payment_reference: paymentReference,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_paid',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(row),
          after: { status: 'paid', payment_reference: paymentReference, journal_id: journalId },
        });
        const mail =
          customer &&
          (await notifier.queue(trx, customer, 'fiat_withdrawal_paid', {
            firstName: customer.first_name,
            receive: money(amount - fee, row.currency),
            currency: row.currency,
            ending: endingOf(row),
          }));
        return { row, mail };
      });
      const after = await requireAdminWithdrawal(id);
      userEvents.moneyMoved([before.user_id]);
      await notifier.deliver(mail);
      return { data: toAdminWithdrawal(after), message: FIAT_TEXTS.withdrawalPaid };
    },

    async rejectWithdrawal(
      actor: AuditActor,
      id: string,
      reason: string,
      { bankReturned }: { bankReturned: boolean },
    ): Promise<Answer<AdminFiatWithdrawal>> {
      const { row: before, mail } = await db.transaction().execute(async (trx) => {
        const row = await lockOpenWithdrawal(trx, id);
        // The bank may be paying it: giving the money back as well would pay the customer twice.
        if (row.exported_at !== null && !bankReturned)
          throw new AppError('CONFLICT', FIAT_TEXTS.inPayoutFile);
        await ledger.releaseHold(trx, { holdId: row.hold_id, outcome: 'voided' });
        await repository.updateWithdrawal(trx, id, {
          status: transition(FIAT_WITHDRAWAL_TRANSITIONS, row.status, 'rejected'),
          rejected_by: actor.staffId,
          rejected_at: new Date(),
          reject_reason: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_rejected',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(row),
          after: { status: 'rejected', reason, ...(row.exported_at !== null ? { bank_returned: true } : {}) },
        });
        const customer = await repository.findCustomer(row.user_id, trx);
        const mail =
          customer &&
          (await notifier.queue(trx, customer, 'fiat_withdrawal_rejected', {
            firstName: customer.first_name,
            amount: money(row.amount, row.currency),
            currency: row.currency,
            reason,
          }));
        return { row, mail };
      });
      userEvents.moneyMoved([before.user_id]);
      await notifier.deliver(mail);
      return {
        data: toAdminWithdrawal(await requireAdminWithdrawal(id)),
        message: FIAT_TEXTS.withdrawalRejected,
      };
    },

    /**
     * The bank's payout file: one line per withdrawal that may be paid now and that no earlier file
     * listed, net amounts. Listing a withdrawal marks it exported (the customer can no longer cancel
     * it); finance then marks each paid or rejects it.
     */
    async exportPayoutFile(actor: AuditActor, currency: FiatCurrency): Promise<Answer<PayoutFile>> {
      const rows = await db.transaction().execute(async (trx) => {
        const exported = await repository.exportPayable(trx, currency, actor.staffId);
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.payout_file_exported',
          targetType: 'fiat_payout_file',
          targetId: currency,
          after: { withdrawals: exported.map((row) => row.id) },
        });
        return exported;
      });
      const header =
        currency === 'GBP'
          ? [
              'withdrawal_id',
              'name_of_account',
              'sort_code',
              'account_number',
              'amount',
              'currency',
              'reference',
            ]
          : ['withdrawal_id', 'name_of_account', 'iban', 'bic', 'amount', 'currency', 'reference'];
      const lines = rows.map((row) => {
        const net = money(BigInt(row.amount) - BigInt(row.fee), row.currency);
        const reference = `FLORIN W${row.id}`;
        const bank =
          currency === 'GBP'
            ? [row.sort_code ?? '', row.account_number ?? '']
            : [row.iban ?? '', row.bic ?? ''];
        return csvLine([String(row.id), row.name_of_account, ...bank, net, row.currency, reference]);
      });
      return {
        data: {
          // To the second: a second file the same day must not overwrite the first in the downloads folder.
          filename: `payouts-${currency}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.csv`,
          csv: csvLine(header) + lines.join(''),
          withdrawals: rows.length,
        },
        message: rows.length === 0 ? FIAT_TEXTS.payoutFileEmpty : FIAT_TEXTS.payoutFileMade,
      };
    },
  };
}
