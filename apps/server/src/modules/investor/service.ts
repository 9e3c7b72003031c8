import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  AppError,
  CATEGORY_STATEMENTS,
  CATEGORY_THRESHOLDS,
  fillText,
  INVESTOR_TEXTS,
  investorEvidenceFilename,
  todayInLondon,
  ukDateTime,
  type AssessmentAttempt,
  type CategoriseBody,
  type InvestorCategory,
  type InvestorEvidence,
  type InvestorJourney,
  type JourneyStep,
} from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import {
  ASSESSMENT_RULES,
  drawAssessment,
  findQuestion,
  scoreAssessment,
} from '@florin/domain/appropriateness';
import type { Clock } from '../../clock.js';
import { ON_HOLD, type DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { InvestorCustomer, InvestorProfile, InvestorRepository } from './repository.js';

const HOUR_MS = 3_600_000;

/** Where the customer stands; `now` decides whether the cooling-off is over. */
function stepOf(profile: InvestorProfile | undefined, now: Date): JourneyStep {
  if (profile?.completed_at) return 'complete';
  if (!profile?.category) return 'categorisation';
  if (!profile.assessment_passed_at) return 'assessment';
  if (profile.cooling_off_ends_at && now < profile.cooling_off_ends_at) return 'cooling_off';
  return 'confirm';
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** Hundredths of a percent, so that 10% is compared exactly: "7.5" → 750n. */
function hundredths(percent: string): bigint {
  const [whole, fraction = ''] = percent.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

const pence = (pounds: string) => parseAmount(pounds, 'GBP');
const atLeast = (pounds: string, threshold: string) => pence(pounds) >= pence(threshold);

/** The calendar date `months` before `date` (YYYY-MM-DD), clamped to the month's end. */
function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const lastDay = new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).getUTCDate();
  const shifted = new Date(Date.UTC(Math.floor(index / 12), index % 12, Math.min(day, lastDay)));
  return shifted.toISOString().slice(0, 10);
}

/**
 * Checks the figures against the category's rule. A customer the rule does
 * not fit is told why, on the field, and nothing is stored.
 */
function checkCategory(accountType: InvestorCustomer['account_type'], body: CategoriseBody): void {
  const allowed = Object.keys(CATEGORY_STATEMENTS[accountType]) as InvestorCategory[];
  if (!allowed.includes(body.category))
    throw new AppError('VALIDATION_FAILED', undefined, { category: ['Choose one of the types listed.'] });
  const refuse = (field: string, text: string) => {
    throw new AppError('VALIDATION_FAILED', undefined, { [field]: [text] });
  };
  const limit = hundredths(CATEGORY_THRESHOLDS.restrictedPercent);
  switch (body.category) {
    case 'restricted':
      if (hundredths(body.past_percent) > limit) refuse('past_percent', INVESTOR_TEXTS.restrictedTooMuch);
      if (hundredths(body.intended_percent) > limit)
        refuse('intended_percent', INVESTOR_TEXTS.restrictedTooMuch);
      return;
    case 'high_net_worth':
      if (
        !atLeast(body.annual_income, CATEGORY_THRESHOLDS.annualIncome) &&
        !atLeast(body.net_assets, CATEGORY_THRESHOLDS.netAssets)
      )
        refuse('annual_income', INVESTOR_TEXTS.highNetWorthBelow);
      return;
    case 'sophisticated': {
      const today = todayInLondon();
      if (
        body.certified_on > today ||
        body.certified_on < monthsBefore(today, CATEGORY_THRESHOLDS.certificateMonths)
      )
        refuse('certified_on', INVESTOR_TEXTS.sophisticatedTooOld);
      return;
    }
    case 'large_undertaking': {
      const met = [
        atLeast(body.balance_sheet_total, CATEGORY_THRESHOLDS.balanceSheetTotal),
        atLeast(body.net_turnover, CATEGORY_THRESHOLDS.netTurnover),
        atLeast(body.own_funds, CATEGORY_THRESHOLDS.ownFunds),
      ].filter(Boolean).length;
      if (met < 2) refuse('balance_sheet_total', INVESTOR_TEXTS.largeCompanyBelow);
      return;
    }
  }
}

export type InvestorServiceDeps = {
  db: Kysely<DB>;
  repository: InvestorRepository;
  /** What the cooling-off and the wait before a retake run by (the app's clock). */
  clock: Clock;
};

/**
 * The first-investment journey (issue 13). Each step checks the one before,
 * runs in a transaction that locks the customer's profile (two tabs cannot
 * pass one step twice) and appends its evidence in the same transaction, so
 * the record never says more or less than what happened.
 */
export function createInvestorService(deps: InvestorServiceDeps) {
  const { db, repository } = deps;
  const now = () => deps.clock.now();

  async function requireCustomer(userId: number): Promise<InvestorCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    if (customer.status !== 1 || customer.block_status === ON_HOLD) throw new AppError('ACCOUNT_NOT_LIVE');
    return customer;
  }

  async function journeyOf(executor: Kysely<DB>, customer: InvestorCustomer): Promise<InvestorJourney> {
    const profile = await repository.findProfile(executor, customer.id);
    const last = await repository.lastSubmittedAttempt(executor, customer.id);
    const at = now();
    const retakeAt = profile?.retake_at && profile.retake_at > at ? profile.retake_at : null;
    return {
      step: stepOf(profile, at),
      account_type: customer.account_type,
      first_name: customer.first_name,
      category: profile?.category ?? null,
      categorised_at: iso(profile?.categorised_at),
      assessment: {
        questions: ASSESSMENT_RULES.questions,
        pass_mark: ASSESSMENT_RULES.passMark,
        last:
          last?.submitted_at && last.passed !== null
            ? {
                score: last.score ?? 0,
                total: last.total ?? 0,
                passed: last.passed,
                submitted_at: last.submitted_at.toISOString(),
              }
            : null,
        retake_at: iso(retakeAt),
        passed_at: iso(profile?.assessment_passed_at),
      },
      cooling_off_ends_at: iso(profile?.cooling_off_ends_at),
      completed_at: iso(profile?.completed_at),
    };
  }

  /** Runs one step on the locked profile; `step` names the steps it may run from. */
  async function inStep<T>(
    userId: number,
    steps: readonly JourneyStep[],
    run: (trx: Kysely<DB>, customer: InvestorCustomer, profile: InvestorProfile) => Promise<T>,
  ): Promise<T> {
    const customer = await requireCustomer(userId);
    return db.transaction().execute(async (trx) => {
      await repository.ensureProfile(trx, userId);
      const profile = (await repository.findProfile(trx, userId, true))!;
      const step = stepOf(profile, now());
      if (!steps.includes(step)) throw new AppError('CONFLICT', stepConflict(step, profile));
      return run(trx, customer, profile);
    });
  }

  function stepConflict(step: JourneyStep, profile: InvestorProfile): string {
    switch (step) {
      case 'categorisation':
        return 'First tell us which type of investor you are.';
      case 'assessment':
        return 'First pass the appropriateness assessment.';
      case 'cooling_off':
        return fillText(INVESTOR_TEXTS.coolingOffText, {
          endsAt: ukDateTime(profile.cooling_off_ends_at!),
        });
      case 'confirm':
        return 'You have passed the assessment: confirm after reading the risk warning.';
      case 'complete':
        return INVESTOR_TEXTS.completeText;
    }
  }

  /** The back office's evidence record of one customer; an unknown customer is a 404. */
  async function evidenceOf(userId: number): Promise<InvestorEvidence> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('NOT_FOUND');
    const events = await repository.listEvidence(userId);
    return {
      customer: {
        id: customer.id,
        reference: customer.user_identification,
        name: `${customer.first_name} ${customer.last_name}`,
        account_type: customer.account_type,
      },
      journey: await journeyOf(db, customer),
      events: events.map((event) => ({
        id: Number(event.id),
        step: event.step,
        details: event.details,
        ip: event.ip,
        created_at: event.created_at.toISOString(),
      })),
    };
  }

  return {
    async journey(userId: number): Promise<{ data: InvestorJourney }> {
      return { data: await journeyOf(db, await requireCustomer(userId)) };
    },

    /** The declared category, its figures and the statement as confirmed; may be changed until the assessment is passed. */
    async categorise(userId: number, body: CategoriseBody, ip: string | null) {
      return inStep(userId, ['categorisation', 'assessment'], async (trx, customer) => {
        checkCategory(customer.account_type, body);
        const statements = CATEGORY_STATEMENTS[customer.account_type] as Record<
          string,
          { label: string; statement: string }
        >;
        const { label, statement } = statements[body.category]!;
        const { category, confirmed: _confirmed, ...figures } = body;
        await repository.updateProfile(trx, userId, { category, categorised_at: now() });
        await repository.addEvidence(trx, userId, {
          step: 'categorised',
          details: {
            category,
            label,
            statement,
            confirmed: true,
            figures,
            account_type: customer.account_type,
          },
          ip,
        });
        return { data: await journeyOf(trx, customer), message: INVESTOR_TEXTS.categorised };
      });
    },

    /** A new attempt: questions drawn at random with their answers shuffled; the previous unanswered one lapses. */
    async startAssessment(userId: number, ip: string | null): Promise<{ data: AssessmentAttempt }> {
      return inStep(userId, ['assessment'], async (trx, _customer, profile) => {
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
      return inStep(userId, ['assessment'], async (trx, customer) => {
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
            retakeAt: retakeAt.toISOString(),
          });
        }
        return {
          data: await journeyOf(trx, customer),
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

    /** The personalised warning was on the customer's screen: its words, as they read them, with the time. */
    async recordWarningShown(userId: number, ip: string | null) {
      return inStep(userId, ['confirm'], async (trx, customer) => {
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
      return inStep(userId, ['confirm'], async (trx, customer) => {
        await repository.addEvidence(trx, userId, {
          step: 'warning_accepted',
          details: { warning: 'personalised', text: personalisedWarning(customer) },
          ip,
        });
        await repository.updateProfile(trx, userId, { completed_at: now() });
        await repository.addEvidence(trx, userId, { step: 'journey_completed', ip });
        return { data: await journeyOf(trx, customer), message: INVESTOR_TEXTS.completed };
      });
    },

    /** The gate of a first buy, term deposit or auto buy (selling, deposits and withdrawals never ask). */
    async assertMayInvest(userId: number): Promise<void> {
      if (!(await repository.isComplete(userId))) throw new AppError('INVESTOR_JOURNEY_INCOMPLETE');
    },

    async evidence(userId: number): Promise<{ data: InvestorEvidence }> {
      return { data: await evidenceOf(userId) };
    },

    /** The record as one file; each export is audited, since it carries the customer's personal data. */
    async exportEvidence(userId: number, actor: AuditActor): Promise<{ filename: string; json: string }> {
      const data = await evidenceOf(userId);
      await recordAudit(db, {
        ...actor,
        action: 'investor_evidence.exported',
        targetType: 'user',
        targetId: userId,
        after: { events: data.events.length },
      });
      return {
        filename: investorEvidenceFilename(data.customer.reference),
        json: JSON.stringify({ exported_at: now().toISOString(), ...data }, null, 2),
      };
    },
  };
}

/** FCA's personalised risk warning with the customer's first name; the link follows it on the screen. */
export function personalisedWarning(customer: Pick<InvestorCustomer, 'first_name'>): string {
  return `${fillText(INVESTOR_TEXTS.personalisedWarning, { firstName: customer.first_name })} ${INVESTOR_TEXTS.learnMore}.`;
}

export type InvestorService = ReturnType<typeof createInvestorService>;
