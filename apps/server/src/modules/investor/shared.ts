import type { Kysely } from 'kysely';
import {
  AppError,
  fillText,
  INVESTOR_TEXTS,
  ukDateTime,
  type InvestorJourney,
  type JourneyStep,
} from '@florin/contracts';
import { isLive } from '@florin/domain';
import { ASSESSMENT_RULES } from '@florin/domain/appropriateness';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import type { InvestorCustomer, InvestorProfile, InvestorRepository } from './repository.js';

/*
 * What the journey's steps (categorisation.ts, assessment.ts, confirmation.ts, evidence.ts) share:
 * their dependencies, where the customer stands and the locked step they run in. service.ts composes them.
 */

export const HOUR_MS = 3_600_000;

export type InvestorServiceDeps = {
  db: Kysely<DB>;
  repository: InvestorRepository;
  /** What the cooling-off and the wait before a retake run by (the app's clock). */
  clock: Clock;
};

/** Where the customer stands; `now` decides whether the cooling-off is over. */
export function stepOf(profile: InvestorProfile | undefined, now: Date): JourneyStep {
  if (profile?.completed_at) return 'complete';
  if (!profile?.category) return 'categorisation';
  if (!profile.assessment_passed_at) return 'assessment';
  if (profile.cooling_off_ends_at && now < profile.cooling_off_ends_at) return 'cooling_off';
  return 'confirm';
}

export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export async function requireCustomer(deps: InvestorServiceDeps, userId: number): Promise<InvestorCustomer> {
  const customer = await deps.repository.findCustomer(userId);
  if (!customer) throw new AppError('UNAUTHENTICATED');
  if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
  return customer;
}

export async function journeyOf(
  deps: InvestorServiceDeps,
  executor: Kysely<DB>,
  customer: InvestorCustomer,
): Promise<InvestorJourney> {
  const { repository } = deps;
  const profile = await repository.findProfile(executor, customer.id);
  const last = await repository.lastSubmittedAttempt(executor, customer.id);
  const at = deps.clock.now();
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
export async function inStep<T>(
  deps: InvestorServiceDeps,
  userId: number,
  steps: readonly JourneyStep[],
  run: (trx: Kysely<DB>, customer: InvestorCustomer, profile: InvestorProfile) => Promise<T>,
): Promise<T> {
  const { db, repository } = deps;
  const customer = await requireCustomer(deps, userId);
  return db.transaction().execute(async (trx) => {
    await repository.ensureProfile(trx, userId);
    const profile = (await repository.findProfile(trx, userId, true))!;
    const step = stepOf(profile, deps.clock.now());
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

/** FCA's personalised risk warning with the customer's first name; the link follows it on the screen. */
export function personalisedWarning(customer: Pick<InvestorCustomer, 'first_name'>): string {
  return `${fillText(INVESTOR_TEXTS.personalisedWarning, { firstName: customer.first_name })} ${INVESTOR_TEXTS.learnMore}.`;
}
