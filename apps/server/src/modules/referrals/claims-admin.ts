import type { Kysely } from 'kysely';
import {
  AFFILIATE_CLAIM_TRANSITIONS,
  AppError,
  REFERRALS_ADMIN_TEXTS,
  type AdminAffiliateClaim,
} from '@florin/contracts';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { transition } from '../../lifecycle.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { ClaimWithUser } from './repository.js';
import {
  affiliateRef,
  BANK_GBP,
  endingOf,
  pounds,
  toClaim,
  type Answer,
  type ReferralServiceDeps,
} from './shared.js';

/** Back office: finance pays or rejects the claims customers made. */
export function createClaimsAdmin(deps: ReferralServiceDeps) {
  const { db, repository, ledger } = deps;

  function adminClaimOf(row: ClaimWithUser): AdminAffiliateClaim {
    return {
      ...toClaim(row),
      user_id: row.user_id,
      email: row.email,
      name: `${row.first_name} ${row.last_name}`,
      name_of_account: row.name_of_account,
      sort_code: row.sort_code,
      account_number: row.account_number,
      rejected_reason: row.rejected_reason,
      customer_on_hold: row.block_status === ON_HOLD,
    };
  }

  async function toAdminClaim(id: string, executor: Kysely<DB> = db): Promise<AdminAffiliateClaim> {
    const row = await repository.findClaimWithUser(id, executor);
    if (!row) throw new AppError('NOT_FOUND');
    return adminClaimOf(row);
  }

  return {
    async listClaims(status: 'waiting' | 'paid' | 'rejected' = 'waiting'): Promise<AdminAffiliateClaim[]> {
      return (await repository.listClaims(status)).map(adminClaimOf);
    },

    /** Finance paid the claim to the bank account it names: Dr user-affiliate:GBP / Cr bank:GBP. */
    async markClaimPaid(actor: AuditActor, id: string): Promise<Answer<AdminAffiliateClaim>> {
      const mail = await db.transaction().execute(async (trx) => {
        const claim = await repository.lockClaim(trx, id);
        if (!claim) throw new AppError('NOT_FOUND');
        if (claim.status !== 'waiting') throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.claimNotWaiting);
        // Locked until the commit: a hold compliance puts on now waits for this payout, or stops it.
        const customer = await repository.lockCustomer(trx, claim.user_id);
        if (customer?.block_status === ON_HOLD)
          throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.customerOnHold);
        const amount = BigInt(claim.amount);
        const { journalId } = await ledger.postHold(trx, {
          holdId: claim.hold_id,
          amount,
          idempotencyKey: `affiliate_claim_paid:${claim.id}`,
          kind: 'affiliate_claim',
          reference: `affiliate_claim:${claim.id}`,
          metadata: { sort_code: claim.sort_code, account_number: claim.account_number },
          postings: [
            { account: affiliateRef(claim.user_id), amount: -amount },
            { account: BANK_GBP, amount },
          ],
        });
        await repository.updateClaim(trx, id, {
          status: transition(AFFILIATE_CLAIM_TRANSITIONS, claim.status, 'paid'),
          journal_id: journalId,
          paid_at: new Date(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.claim_paid',
          targetType: 'affiliate_claim',
          targetId: id,
          before: { status: 'waiting' },
          after: { status: 'paid', amount: pounds(amount) },
        });
        return (
          customer &&
          deps.notifier.queue(trx, customer, 'affiliate_claim_paid', {
            firstName: customer.first_name,
            amount: pounds(amount),
            ending: endingOf(claim.account_number),
          })
        );
      });
      await deps.notifier.deliver(mail);
      const paid = await toAdminClaim(id);
      return { data: paid, message: REFERRALS_ADMIN_TEXTS.claimPaid };
    },

    /** Finance could not pay it: the hold is voided and the amount is Unpaid again. */
    async rejectClaim(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminAffiliateClaim>> {
      const mail = await db.transaction().execute(async (trx) => {
        const claim = await repository.lockClaim(trx, id);
        if (!claim) throw new AppError('NOT_FOUND');
        if (claim.status !== 'waiting') throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.claimNotWaiting);
        await ledger.releaseHold(trx, { holdId: claim.hold_id, outcome: 'voided' });
        await repository.updateClaim(trx, id, {
          status: transition(AFFILIATE_CLAIM_TRANSITIONS, claim.status, 'rejected'),
          rejected_at: new Date(),
          rejected_reason: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.claim_rejected',
          targetType: 'affiliate_claim',
          targetId: id,
          before: { status: 'waiting' },
          after: { status: 'rejected', reason },
        });
        const customer = await repository.findCustomer(claim.user_id, trx);
        return (
          customer &&
          deps.notifier.queue(trx, customer, 'affiliate_claim_rejected', {
            firstName: customer.first_name,
            amount: pounds(claim.amount),
            reason,
          })
        );
      });
      await deps.notifier.deliver(mail);
      const rejected = await toAdminClaim(id);
      return { data: rejected, message: REFERRALS_ADMIN_TEXTS.claimRejected };
    },
  };
}
