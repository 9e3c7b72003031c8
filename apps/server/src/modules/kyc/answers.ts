import { AppError, KYC_TEXTS, type KycBody, type YesNo } from '@florin/contracts';
import type { AnswersValues } from './repository.js';
import {
  isHandedIn,
  isOverSourceOfWealthThreshold,
  lockUser,
  requireAccountType,
  type KycServiceDeps,
} from './shared.js';

/**
 * The answers as stored: the no branch asks only about risk, so anything of
 * the yes branch it carried is dropped; a declaration's details only when it
 * was answered Yes.
 */
function toAnswersValues(body: KycBody): AnswersValues {
  // The contract gives the branch (as sent, or read from the fields sent) and requires the risk answer.
  const trades = body.trades_over_threshold;
  const isYesBranch = trades === 1;
  const pick = <T>(value: T | undefined): T | null => (isYesBranch && value !== undefined ? value : null);
  const declaration = (flag: YesNo | undefined, details: string | undefined) => ({
    flag: pick(flag),
    details: isYesBranch && flag === 1 ? (details ?? null) : null,
  });
  const offense = declaration(body.offense, body.offense_details);
  const criminal = declaration(body.criminal, body.criminal_details);
  const caution = declaration(body.caution, body.caution_details);
  const ccj = declaration(body.ccj, body.ccj_details);
  return {
    trades_over_threshold: trades,
    aware_of_risk: body.aware_of_risk ?? 0,
    initial_investment: pick(body.initial_investment),
    annual_income: pick(body.annual_income),
    net_worth: pick(body.net_worth),
    investment_portfolio: pick(body.investment_portfolio),
    source_of_wealth: pick(body.source_of_wealth),
    experience: pick(body.experience),
    investment_trades: pick(body.investment_trades),
    offense: offense.flag,
    offense_details: offense.details,
    criminal: criminal.flag,
    criminal_details: criminal.details,
    caution: caution.flag,
    caution_details: caution.details,
    ccj: ccj.flag,
    ccj_details: ccj.details,
  };
}

/** The answers to the source-of-wealth questions. */
export function createAnswers(deps: Pick<KycServiceDeps, 'db' | 'repository' | 'tradingVolumes'>) {
  const { db, repository } = deps;

  return {
    /** The first answers to the source-of-wealth questions. */
    async createAnswers(userId: number, body: KycBody): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await lockUser(repository, trx, userId);
        requireAccountType(user);
        if (await repository.findAnswers(userId, trx)) throw new AppError('CONFLICT');
        await repository.insertAnswers(userId, toAnswersValues(body), trx);
        if (user.is_sow_reset === 1) await repository.updateUser(userId, { is_sow_reset: 0 }, trx);
      });
    },

    /**
     * New answers: going back in the wizard, or after staff reset them (sow_reset 0 clears the
     * reset). Once the wizard is handed in, staff review the answers (and once live, have), so
     * only a reset opens them again: the same moment the date of birth locks.
     */
    async updateAnswers(userId: number, body: KycBody): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await lockUser(repository, trx, userId);
        if (isHandedIn(user) && user.is_sow_reset !== 1) {
          throw new AppError('CONFLICT', KYC_TEXTS.answersLocked);
        }
        // Spec 000 section 9: who has traded more than £15,000 this year cannot answer that they will not.
        if (body.trades_over_threshold === 0 && (await isOverSourceOfWealthThreshold(deps, userId, trx))) {
          throw new AppError('VALIDATION_FAILED', KYC_TEXTS.overThresholdAnswer, {
            trades_over_threshold: [KYC_TEXTS.overThresholdAnswer],
          });
        }
        if (!(await repository.findAnswers(userId, trx))) throw new AppError('CONFLICT');
        await repository.updateAnswers(userId, toAnswersValues(body), trx);
        if (body.sow_reset === 0) await repository.updateUser(userId, { is_sow_reset: 0 }, trx);
      });
    },
  };
}
