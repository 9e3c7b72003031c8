import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { KYC_TEXTS, YesNoSchema, type YesNo } from './kyc.js';

/** Verification steps 7 to 9: the source-of-wealth questions (spec 000 section 9); kyc.ts has the texts. */

const ok = z.object({ message: z.string() });

// ---- source of wealth (steps 7-9, and the reset screen) ----

/** Answer bands: the value sent and what the customer reads. */
export const WEALTH_CHOICES = {
  initial_investment: {
    under_1k: 'Under £1,000',
    '1k_5k': '£1,000 – £5,000',
    '5k_15k': '£5,000 – £15,000',
    '15k_50k': '£15,000 – £50,000',
    '50k_100k': '£50,000 – £100,000',
    over_100k: 'Over £100,000',
  },
  annual_income: {
    under_25k: 'Under £25,000',
    '25k_50k': '£25,000 – £50,000',
    '50k_100k': '£50,000 – £100,000',
    '100k_250k': '£100,000 – £250,000',
    over_250k: 'Over £250,000',
  },
  net_worth: {
    under_50k: 'Under £50,000',
    '50k_250k': '£50,000 – £250,000',
    '250k_1m': '£250,000 – £1,000,000',
    over_1m: 'Over £1,000,000',
  },
  investment_portfolio: {
    none: 'None',
    under_10k: 'Under £10,000',
    '10k_50k': '£10,000 – £50,000',
    '50k_250k': '£50,000 – £250,000',
    over_250k: 'Over £250,000',
  },
  source_of_wealth: {
    employment: 'Employment income',
    business: 'Business ownership or profits',
    investments: 'Investments',
    inheritance: 'Inheritance or gift',
    property: 'Sale of property',
    savings: 'Savings',
    pension: 'Pension',
  },
  experience: {
    none: 'None',
    under_1: 'Less than 1 year',
    '1_3': '1 – 3 years',
    '3_5': '3 – 5 years',
    over_5: 'More than 5 years',
  },
  investment_trades: {
    '0': 'None',
    '1_5': '1 – 5 a month',
    '6_20': '6 – 20 a month',
    over_20: 'More than 20 a month',
  },
} as const;
export type WealthQuestion = keyof typeof WEALTH_CHOICES;
export const WEALTH_QUESTIONS = Object.keys(WEALTH_CHOICES) as WealthQuestion[];

/** The four declarations of the yes branch, each with its details field when answered Yes. */
export const DECLARATIONS = ['offense', 'criminal', 'caution', 'ccj'] as const;
export type Declaration = (typeof DECLARATIONS)[number];

const choice = (question: WealthQuestion) =>
  z
    .enum(Object.keys(WEALTH_CHOICES[question]) as [string, ...string[]], { error: KYC_TEXTS.pleaseChoose })
    .optional();
const answer = YesNoSchema.optional();
const details = z.string().trim().max(1000, 'The details may be at most 1000 characters.').optional();

/** Every field of the yes branch (Source of Wealth and Experience) besides the risk question. */
const YES_BRANCH_FIELDS = [
  ...WEALTH_QUESTIONS,
  ...DECLARATIONS,
  ...DECLARATIONS.map((declaration) => `${declaration}_details` as const),
] as const;
type YesBranchField = (typeof YES_BRANCH_FIELDS)[number];

/** Whether a field sent says the customer is on the yes branch: a declaration only when answered Yes. */
function isYesBranchAnswer(field: YesBranchField, answer: unknown): boolean {
  if (answer === undefined || answer === null || answer === '') return false;
  if ((DECLARATIONS as readonly string[]).includes(field)) return answer === 1 || answer === '1';
  return true;
}

/**
 * Step 7's answer as sent; spec 000's field list has no `trades_over_threshold`, so without it the
 * form sent tells: a wealth question, a declaration answered Yes or its details mean Yes; the risk
 * question alone (with declarations at 0, as a client may send them) is No.
 */
function tradesOverThresholdOf(
  value: { trades_over_threshold?: YesNo } & Partial<Record<YesBranchField, unknown>>,
): YesNo {
  if (value.trades_over_threshold !== undefined) return value.trades_over_threshold;
  return YES_BRANCH_FIELDS.some((field) => isYesBranchAnswer(field, value[field])) ? 1 : 0;
}

/**
 * Step 7 (`trades_over_threshold`, or read from the fields sent), then the yes branch (step 8:
 * Source of Wealth and Experience, every question) or the no branch (step 9: the risk-awareness
 * question only). The parsed body always carries the branch.
 */
export const KycBodySchema = z
  .strictObject({
    trades_over_threshold: YesNoSchema.optional(),
    aware_of_risk: answer,
    initial_investment: choice('initial_investment'),
    annual_income: choice('annual_income'),
    net_worth: choice('net_worth'),
    investment_portfolio: choice('investment_portfolio'),
    source_of_wealth: choice('source_of_wealth'),
    experience: choice('experience'),
    investment_trades: choice('investment_trades'),
    offense: answer,
    offense_details: details,
    criminal: answer,
    criminal_details: details,
    caution: answer,
    caution_details: details,
    ccj: answer,
    ccj_details: details,
    /** The reset variant sends 0: the customer answered again. */
    sow_reset: z.literal(0).optional(),
  })
  .superRefine((value, context) => {
    const missing = (path: string) =>
      context.addIssue({ code: 'custom', path: [path], message: KYC_TEXTS.pleaseChoose });
    if (value.aware_of_risk === undefined) missing('aware_of_risk');
    if (tradesOverThresholdOf(value) !== 1) return;
    for (const question of WEALTH_QUESTIONS) if (value[question] === undefined) missing(question);
    for (const declaration of DECLARATIONS) {
      if (value[declaration] === undefined) missing(declaration);
      else if (value[declaration] === 1 && !value[`${declaration}_details`]) {
        context.addIssue({
          code: 'custom',
          path: [`${declaration}_details`],
          message: KYC_TEXTS.detailsRequired,
        });
      }
    }
  })
  .transform((value) => ({ ...value, trades_over_threshold: tradesOverThresholdOf(value) }));
export type KycBody = z.infer<typeof KycBodySchema>;

export const KycAnswersSchema = z.object({
  trades_over_threshold: YesNoSchema,
  aware_of_risk: YesNoSchema,
  initial_investment: z.string().nullable(),
  annual_income: z.string().nullable(),
  net_worth: z.string().nullable(),
  investment_portfolio: z.string().nullable(),
  source_of_wealth: z.string().nullable(),
  experience: z.string().nullable(),
  investment_trades: z.string().nullable(),
  offense: YesNoSchema.nullable(),
  offense_details: z.string().nullable(),
  criminal: YesNoSchema.nullable(),
  criminal_details: z.string().nullable(),
  caution: YesNoSchema.nullable(),
  caution_details: z.string().nullable(),
  ccj: YesNoSchema.nullable(),
  ccj_details: z.string().nullable(),
});
export type KycAnswers = z.infer<typeof KycAnswersSchema>;

export const createKyc = defineEndpoint({
  method: 'POST',
  path: '/api/v1/settings/kyc/create',
  summary: 'Answer the source-of-wealth questions for the first time',
  body: KycBodySchema,
  responses: { 200: ok },
});

export const updateKyc = defineEndpoint({
  method: 'POST',
  path: '/api/v1/settings/kyc/update',
  summary: 'Answer the source-of-wealth questions again (after a reset by staff, or going back)',
  body: KycBodySchema,
  responses: { 200: ok },
});
