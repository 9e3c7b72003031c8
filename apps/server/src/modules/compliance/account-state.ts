import { AppError, COMPLIANCE_TEXTS, type CustomerDetails } from '@florin/contracts';
import { BLOCK_STATUS, CUSTOMER_STATUS } from '@florin/domain';
import type { Kysely } from 'kysely';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { AuditActor } from '../audit/service.js';
import {
  changeAccount,
  refuseWhileMatched,
  requireCustomer,
  userUrlOf,
  type ComplianceServiceDeps,
  type Decision,
} from './shared.js';
import { checkGoLive, toCustomerDetails } from './views.js';

/** The account's state: made live, put on hold, the hold's reason restated, the hold lifted. */
export function createAccountState(deps: ComplianceServiceDeps) {
  const { db, repository, notifier } = deps;
  const userUrl = userUrlOf(deps);
  return {
    async makeLive(actor: AuditActor, userId: number): Promise<Decision<CustomerDetails>> {
      // Nobody goes live unscreened: a missed onboarding screening happens now, before the customer's lock
      // is taken (a match puts the account on hold, which takes it too), and a match keeps them from going live.
      const { status, verification_completed_at: completedAt } = await requireCustomer(deps, userId);
      if (status !== CUSTOMER_STATUS.live && completedAt)
        await deps.sanctions.screenIfMissedSince(userId, completedAt);
      const { customer, changed, mail } = await changeAccount(deps, actor, userId, async (before, trx) => {
        if (before.status === CUSTOMER_STATUS.live) return null;
        // A match the screening wrote but failed to hold the account for must not go live unreviewed.
        await refuseWhileMatched(deps, userId, trx);
        // A re-upload supersedes a document with an UPDATE: it waits until this decision commits.
        await repository.lockDocuments(trx, userId);
        // Read under the customer's lock, which a new address and a deleted director take too.
        const check = checkGoLive(
          before,
          await repository.listDocuments(userId, trx),
          await deps.kyc.hasEveryStepSubmitted(userId, trx),
          null, // refused above, with the match's own text
        );
        if (!check.allowed) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.cannotGoLive, undefined, {
            blockers: check.blockers,
          });
        }
        const liveSince = new Date();
        await repository.updateCustomer(trx, userId, { status: CUSTOMER_STATUS.live, live_since: liveSince });
        return {
          action: 'user.made_live',
          before: { status: before.status, live_since: before.live_since },
          after: { status: CUSTOMER_STATUS.live, live_since: liveSince },
          mail: await notifier.queue(trx, before, 'account_live', {
            firstName: before.first_name,
            url: userUrl,
          }),
        };
      });
      await notifier.deliver(mail);
      return {
        data: toCustomerDetails(customer),
        message: changed ? COMPLIANCE_TEXTS.madeLive : COMPLIANCE_TEXTS.alreadyLive,
      };
    },

    async putOnHold(actor: AuditActor, userId: number, reason: string): Promise<Decision<CustomerDetails>> {
      const { customer, mail } = await changeAccount(deps, actor, userId, async (before, trx) => {
        if (before.block_status === ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.alreadyOnHold);
        await repository.updateCustomer(trx, userId, { block_status: ON_HOLD, block_reason: reason });
        return {
          action: 'user.put_on_hold',
          before: { block_status: before.block_status, block_reason: before.block_reason },
          after: { block_status: ON_HOLD, block_reason: reason },
          mail: await notifier.queue(trx, before, 'account_on_hold', { firstName: before.first_name }),
        };
      });
      await notifier.deliver(mail);
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.putOnHold };
    },

    /**
     * The account stays on hold for a new reason (a possible sanctions match confirmed): staff reading the
     * customer's page see why it is held now; the former reason stays in the audit. Not a new hold, so the
     * customer is not told again. Given the caller's transaction, the new reason commits with the caller's
     * change or not at all.
     */
    async restateHold(
      actor: AuditActor,
      userId: number,
      reason: string,
      executor: Kysely<DB> = db,
    ): Promise<void> {
      await changeAccount(
        deps,
        actor,
        userId,
        async (before, trx) => {
          if (before.block_status !== ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.notOnHold);
          if (before.block_reason === reason) return null;
          await repository.updateCustomer(trx, userId, { block_reason: reason });
          return {
            action: 'user.hold_reason_changed',
            before: { block_reason: before.block_reason },
            after: { block_reason: reason },
          };
        },
        executor,
      );
    },

    async liftHold(actor: AuditActor, userId: number, reason: string): Promise<Decision<CustomerDetails>> {
      const { customer, mail } = await changeAccount(deps, actor, userId, async (before, trx) => {
        if (before.block_status !== ON_HOLD) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.notOnHold);
        // A match nobody has reviewed may be the listed person, whose money must stay frozen (OFSI): the
        // hit is marked a false positive first. Read under the customer's lock, after a screening has
        // committed its hit and before it holds the account, the hit is seen all the same.
        await refuseWhileMatched(deps, userId, trx);
        await repository.updateCustomer(trx, userId, { block_status: BLOCK_STATUS.none, block_reason: null });
        return {
          action: 'user.hold_lifted',
          before: { block_status: before.block_status, block_reason: before.block_reason },
          after: { block_status: BLOCK_STATUS.none, block_reason: null, reason },
          mail: await notifier.queue(trx, before, 'account_hold_lifted', { firstName: before.first_name }),
        };
      });
      await notifier.deliver(mail);
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.holdLifted };
    },
  };
}
