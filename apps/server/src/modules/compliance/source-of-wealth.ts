import { sql } from 'kysely';
import { AppError, COMPLIANCE_TEXTS, type CustomerDetails } from '@florin/contracts';
import type { SqlFact } from '../../db/sql-fact.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/service.js';
import { changeAccount, userUrlOf, type ComplianceServiceDeps, type Decision } from './shared.js';
import { toCustomerDetails } from './views.js';

/** Source of wealth asked again: by staff, or by the system once a customer trades over £15,000 a year. */
export function createSourceOfWealth(deps: ComplianceServiceDeps) {
  const { db, repository, notifier } = deps;
  const userUrl = userUrlOf(deps);
  return {
    async resetSourceOfWealth(
      actor: AuditActor,
      userId: number,
      reason: string,
    ): Promise<Decision<CustomerDetails>> {
      const { customer, mail } = await changeAccount(deps, actor, userId, async (before, trx) => {
        if (before.is_sow_reset === 1)
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.sourceOfWealthAlreadyReset);
        if (!(await repository.hasKycAnswers(trx, userId))) {
          throw new AppError('CONFLICT', COMPLIANCE_TEXTS.sourceOfWealthNotAnswered);
        }
        await repository.updateCustomer(trx, userId, { is_sow_reset: 1 });
        return {
          action: 'user.source_of_wealth_reset',
          before: { is_sow_reset: before.is_sow_reset },
          after: { is_sow_reset: 1, reason },
          mail: await notifier.queue(trx, before, 'source_of_wealth_reset', {
            firstName: before.first_name,
            url: userUrl,
          }),
        };
      });
      await notifier.deliver(mail);
      return { data: toCustomerDetails(customer), message: COMPLIANCE_TEXTS.sourceOfWealthReset };
    },

    /**
     * Whether the customer may be asked by the threshold at all (answered No, not reset, not terminated: what
     * resetSourceOfWealthOverThreshold looks for), read inside a trade's own statement so that a trade over the
     * threshold by a customer who answered Yes sends nothing more (issue 43).
     */
    mayBeAskedByThresholdFact: (userId: number): SqlFact<boolean> => ({
      select: sql<boolean>`EXISTS (SELECT 1 FROM users u JOIN kyc_answers a ON a.user_id = u.id
        WHERE u.id = ${userId} AND u.is_sow_reset = 0 AND u.terminated_at IS NULL AND a.trades_over_threshold = 0)`,
      read: (raw) => raw === true,
    }),

    /**
     * Spec 000 section 9: a customer who said they would not trade more than £15,000 a year and now
     * has, this calendar year, is asked for their source of wealth, as a staff reset asks, by the
     * system. Run after trades commit and, for anyone those missed (the process stopped after a
     * commit, or the check failed), hourly by the leading instance: the state decides, not the
     * crossing. Without `userIds`, every customer who answered No.
     */
    async resetSourceOfWealthOverThreshold(userIds?: readonly number[]): Promise<void> {
      const over = await deps.tradingVolumes.listOverSourceOfWealthThreshold(
        await repository.listAnsweredBelowThreshold(db, userIds),
      );
      for (const userId of over) {
        const { mail } = await changeAccount(deps, SYSTEM_ACTOR, userId, async (before, trx) => {
          // Under the customer's lock: staff may have reset them, or they answered Yes, meanwhile.
          const still = await repository.listAnsweredBelowThreshold(trx, [userId]);
          if (before.is_sow_reset === 1 || still.length === 0) return null;
          await repository.updateCustomer(trx, userId, { is_sow_reset: 1 });
          return {
            action: 'user.source_of_wealth_reset',
            before: { is_sow_reset: before.is_sow_reset },
            after: { is_sow_reset: 1, reason: COMPLIANCE_TEXTS.sourceOfWealthThresholdReason },
            mail: await notifier.queue(trx, before, 'source_of_wealth_threshold', {
              firstName: before.first_name,
              url: userUrl,
            }),
          };
        });
        await notifier.deliver(mail);
      }
    },
  };
}
