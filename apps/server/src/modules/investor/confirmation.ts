import { sql } from 'kysely';
import { AppError, INVESTOR_TEXTS } from '@florin/contracts';
import type { SqlFact } from '../../db/sql-fact.js';
import { inStep, journeyOf, personalisedWarning, type InvestorServiceDeps } from './shared.js';

/** The last step: the personalised warning shown and accepted; then the customer may invest. */
export function createConfirmation(deps: InvestorServiceDeps) {
  const { repository } = deps;
  const now = () => deps.clock.now();
  return {
    /** The personalised warning was on the customer's screen: its words, as they read them, with the time. */
    async recordWarningShown(userId: number, ip: string | null) {
      return inStep(deps, userId, ['confirm'], async (trx, customer) => {
        const recordedAt = await repository.addEvidence(trx, userId, {
          step: 'warning_shown',
          details: { warning: 'personalised', text: personalisedWarning(customer) },
          ip,
        });
        return { data: { recorded_at: recordedAt.toISOString() } };
      });
    },

    /** After the cooling-off period: the customer accepts the personalised warning, and may invest. */
    async confirm(userId: number, ip: string | null) {
      return inStep(deps, userId, ['confirm'], async (trx, customer) => {
        await repository.addEvidence(trx, userId, {
          step: 'warning_accepted',
          details: { warning: 'personalised', text: personalisedWarning(customer) },
          ip,
        });
        await repository.updateProfile(trx, userId, { completed_at: now() });
        await repository.addEvidence(trx, userId, { step: 'journey_completed', ip });
        return { data: await journeyOf(deps, trx, customer), message: INVESTOR_TEXTS.completed };
      });
    },

    /** The gate of a first buy, term deposit or auto buy (selling, deposits and withdrawals never ask). */
    async assertMayInvest(userId: number): Promise<void> {
      if (!(await repository.isComplete(userId))) throw new AppError('INVESTOR_JOURNEY_INCOMPLETE');
    },

    /** Whether the journey is complete, read inside another module's statement (a quote's single read). */
    mayInvestFact: (userId: number): SqlFact<boolean> => ({
      select: sql<boolean>`EXISTS (SELECT 1 FROM investor_profiles WHERE user_id = ${userId} AND completed_at IS NOT NULL)`,
      read: (raw) => raw === true,
    }),
  };
}
