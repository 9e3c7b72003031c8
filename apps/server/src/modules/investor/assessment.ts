import { randomInt, randomUUID } from 'node:crypto';
import { AppError, fillText, INVESTOR_TEXTS, ukDateTime, type AssessmentAttempt } from '@florin/contracts';
import {
  ASSESSMENT_RULES,
  drawAssessment,
  findQuestion,
  scoreAssessment,
} from '@florin/domain/appropriateness';
import { HOUR_MS, inStep, journeyOf, type InvestorServiceDeps } from './shared.js';

/** The appropriateness assessment: drawn at random, scored once, a pass starting the cooling-off. */
export function createAssessment(deps: InvestorServiceDeps) {
  const { repository } = deps;
  const now = () => deps.clock.now();
  return {
    /** A new attempt: questions drawn at random with their answers shuffled; the previous unanswered one lapses. */
    async startAssessment(userId: number, ip: string | null): Promise<{ data: AssessmentAttempt }> {
      return inStep(deps, userId, ['assessment'], async (trx, _customer, profile) => {
        if (profile.retake_at && profile.retake_at > now())
          throw new AppError(
            'CONFLICT',
            fillText(INVESTOR_TEXTS.retakeWait, { retakeAt: ukDateTime(profile.retake_at) }),
          );
        const id = randomUUID();
        const drawn = drawAssessment(randomInt);
        await repository.insertAttempt(trx, id, userId, drawn);
        await repository.addEvidence(trx, userId, {
          step: 'assessment_started',
          details: { attempt_id: id, questions: drawn.map((question) => question.id) },
          ip,
        });
        const questions = drawn.map(({ id: questionId, option_ids: optionIds }) => {
          const question = findQuestion(questionId)!;
          return {
            id: question.id,
            text: question.text,
            options: optionIds.map((optionId) => question.options.find((option) => option.id === optionId)!),
          };
        });
        return { data: { id, questions } };
      });
    },

    /** Scores an attempt once. A pass starts the cooling-off period; a fail sets when a retake may start. */
    async submitAssessment(
      userId: number,
      attemptId: string,
      answers: Record<string, string>,
      ip: string | null,
    ) {
      return inStep(deps, userId, ['assessment'], async (trx, customer) => {
        const attempt = await repository.newestAttempt(trx, userId);
        // Someone else's attempt, or one replaced by a newer start, is not this customer's to answer.
        if (!attempt || attempt.id !== attemptId) throw new AppError('NOT_FOUND');
        if (attempt.submitted_at) throw new AppError('CONFLICT', 'This attempt has already been answered.');
        let outcome;
        try {
          outcome = scoreAssessment(attempt.questions, answers);
        } catch (error) {
          if (error instanceof RangeError)
            throw new AppError('VALIDATION_FAILED', undefined, {
              answers: [INVESTOR_TEXTS.assessmentUnanswered],
            });
          throw error;
        }
        const submittedAt = now();
        await repository.submitAttempt(trx, attemptId, { answers, ...outcome }, submittedAt);
        const details = {
          attempt_id: attemptId,
          score: outcome.score,
          total: outcome.total,
          pass_mark: ASSESSMENT_RULES.passMark,
          experience: outcome.experience,
          answers,
        };
        let message: string;
        if (outcome.passed) {
          const endsAt = new Date(submittedAt.getTime() + ASSESSMENT_RULES.coolingOffHours * HOUR_MS);
          await repository.updateProfile(trx, userId, {
            assessment_passed_at: submittedAt,
            cooling_off_ends_at: endsAt,
            retake_at: null,
          });
          await repository.addEvidence(trx, userId, { step: 'assessment_passed', details, ip });
          await repository.addEvidence(trx, userId, {
            step: 'cooling_off_started',
            details: { ends_at: endsAt.toISOString() },
            ip,
          });
          message = INVESTOR_TEXTS.assessmentPassed;
        } else {
          const retakeAt = new Date(submittedAt.getTime() + ASSESSMENT_RULES.retakeWaitHours * HOUR_MS);
          await repository.updateProfile(trx, userId, { retake_at: retakeAt });
          await repository.addEvidence(trx, userId, {
            step: 'assessment_failed',
            details: { ...details, retake_at: retakeAt.toISOString() },
            ip,
          });
          message = fillText(INVESTOR_TEXTS.assessmentFailed, {
            score: outcome.score,
            total: outcome.total,
            passMark: ASSESSMENT_RULES.passMark,
            retakeAt: ukDateTime(retakeAt),
          });
        }
        return {
          data: await journeyOf(deps, trx, customer),
          result: {
            score: outcome.score,
            total: outcome.total,
            passed: outcome.passed,
            submitted_at: submittedAt.toISOString(),
          },
          message,
        };
      });
    },
  };
}
