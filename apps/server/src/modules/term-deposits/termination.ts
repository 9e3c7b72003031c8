import type { Transaction } from 'kysely';
import { coinIdOfAsset, floorToTermDepositDecimals, type CryptoAsset } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { TermDepositServiceDeps } from './shared.js';

/** The firm's termination of a customer: deposits that would outlast their access end early. */
export function createTermination(deps: TermDepositServiceDeps) {
  const { repository } = deps;

  return {
    /**
     * The firm's termination (closure service, in its transaction): a live deposit that would end after the
     * account becomes withdraw-only ends then instead, with the interest for the time it will have been held
     * (floored), so its coins come back while the customer can still withdraw them. Audited; returns how many.
     */
    async endByTermination(
      trx: Transaction<DB>,
      userId: number,
      terminatedAt: Date,
      actor: AuditActor,
    ): Promise<number> {
      const deposits = await repository.lockLiveEndingAfter(trx, userId, terminatedAt);
      for (const deposit of deposits) {
        const heldMs = BigInt(Math.max(0, terminatedAt.getTime() - deposit.starts_at.getTime()));
        const termMs = BigInt(deposit.matures_at.getTime() - deposit.starts_at.getTime());
        const interest = floorToTermDepositDecimals(
          (BigInt(deposit.interest) * heldMs) / termMs,
          coinIdOfAsset(deposit.asset as CryptoAsset),
        );
        await repository.shortenDeposit(trx, deposit.id, {
          matures_at: terminatedAt,
          interest: interest.toString(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit.ended_by_termination',
          targetType: 'term_deposit',
          targetId: deposit.id,
          before: { matures_at: deposit.matures_at.toISOString(), interest: deposit.interest },
          after: { matures_at: terminatedAt.toISOString(), interest: interest.toString() },
        });
      }
      return deposits.length;
    },
  };
}
