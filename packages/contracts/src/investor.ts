import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * The first-investment journey (issue 13; FCA rules for cryptoasset
 * promotions since October 2023): before a customer's first buy, term
 * deposit or auto buy they say which type of investor they are, pass the
 * appropriateness assessment, wait 24 hours, and confirm after reading a
 * personalised risk warning. Selling, depositing and withdrawing never wait.
 * Every step is kept as evidence the back office can export.
 */

export const INVESTOR_TEXTS = {
  title: 'Before you invest',
  menuLabel: 'Before you invest',
  intro:
    'The law asks us to check that crypto investments are right for you before your first one. It takes about ten minutes; then there is a 24-hour cooling-off period before you can buy.',
  gateTitle: 'Before your first investment',
  gateText:
    'We need to check that crypto investments are right for you before your first buy, term deposit or auto buy. Selling, depositing and withdrawing work as normal.',
  gateAction: 'Continue',
  stepLabels: ['Your investor type', 'Assessment', 'Cooling-off', 'Confirm'],
  categoriseHeading: 'Which type of investor are you?',
  categoriseIntro:
    'Choose the statement that describes you, give the figures it asks for and confirm it is true.',
  confirmStatement: 'I confirm the statement above is true.',
  categoriseSubmit: 'Save and continue',
  noneLabel: 'None of these describes me',
  noneText:
    'Then we cannot offer you crypto investments for now: every investor must fit one of these types. You can still deposit, sell and withdraw. If your circumstances change, come back and choose again.',
  restrictedTooMuch:
    'A restricted investor puts no more than 10% of their net assets into high-risk investments. If that is not you, choose another type.',
  highNetWorthBelow:
    'A high-net-worth investor has an annual income of £100,000 or more, or net assets of £250,000 or more.',
  sophisticatedTooOld: 'The certificate must be dated within the last 36 months, and not in the future.',
  largeCompanyBelow:
    'A large company meets at least two of the three figures: £20 million, £40 million, £2 million.',
  categorised: 'Thank you. Next, a short assessment.',
  assessmentHeading: 'Appropriateness assessment',
  assessmentIntro:
    'Answer these questions about how crypto works and its risks. The questions change each time. You need {passMark} of {questions} right to pass.',
  assessmentStart: 'Start the assessment',
  assessmentSubmit: 'Submit answers',
  assessmentUnanswered: 'Answer every question before you submit.',
  assessmentPassed: 'You passed the assessment.',
  assessmentFailed:
    'You answered {score} of {total} correctly; {passMark} are needed. Read our risk summary, and try again after {retakeAt}.',
  retakeWait: 'You can take the assessment again after {retakeAt}.',
  coolingOffHeading: 'Your 24-hour cooling-off period',
  coolingOffText:
    'You can make your first investment after {endsAt}. Take the time to think it over. Meanwhile you can deposit, sell and withdraw as normal. Come back then to confirm you still want to invest.',
  confirmHeading: 'One last check',
  /** FCA's personalised risk warning (PS23/6), with the customer's first name. */
  personalisedWarning:
    "{firstName}, this is a high-risk investment. How would you feel if you lost the money you're about to invest?",
  learnMore: 'Take 2 mins to learn more',
  confirmAccept: 'I understand the risks, continue',
  confirmLeave: 'Not now',
  completed: 'You can now make your first investment.',
  completeHeading: 'You are ready to invest',
  completeText: 'You have completed the checks the law asks for before a first investment.',
  evidenceHeading: 'First investment journey',
  evidenceExport: 'Export evidence',
  evidenceEmpty: 'This customer has not started the first investment journey.',
} as const;

/** Fills `{name}` placeholders of a text. */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match));
}

export const INDIVIDUAL_CATEGORIES = ['restricted', 'high_net_worth', 'sophisticated'] as const;
export const CORPORATE_CATEGORIES = ['large_undertaking', 'restricted'] as const;
export const InvestorCategorySchema = z.enum([
  'restricted',
  'high_net_worth',
  'sophisticated',
  'large_undertaking',
]);
export type InvestorCategory = z.infer<typeof InvestorCategorySchema>;

/**
 * The investor statements (COBS 4 Annex 4R to 4 Annex 6R, shortened for
 * the screen), the company's for a Corporate account. What the customer
 * confirmed is stored word for word with the answer.
 */
export const CATEGORY_STATEMENTS = {
  Individual: {
    restricted: {
      label: 'Restricted investor',
      statement:
        'In the past twelve months I have not invested more than 10% of my net assets in high-risk investments, and in the next twelve months I will not invest more than 10% of my net assets in them. Net assets do not include my home, my pension or insurance.',
    },
    high_net_worth: {
      label: 'High-net-worth investor',
      statement:
        'In the last financial year I had an annual income of £100,000 or more, or net assets of £250,000 or more throughout the year. Net assets do not include my home, my pension or insurance.',
    },
    sophisticated: {
      label: 'Certified sophisticated investor',
      statement:
        'I have a certificate, signed within the last 36 months by a firm authorised by the FCA, saying I know enough to understand the risks of high-risk investments.',
    },
  },
  Corporate: {
    large_undertaking: {
      label: 'Large company',
      statement:
        'At its last balance sheet date the company met at least two of these: a balance sheet total of £20 million or more, a net turnover of £40 million or more, own funds of £2 million or more.',
    },
    restricted: {
      label: 'Other company',
      statement:
        'In the past twelve months the company has not invested more than 10% of its net assets in high-risk investments, and in the next twelve months it will not invest more than 10% of its net assets in them.',
    },
  },
} as const;

export const CATEGORY_FIELD_LABELS = {
  past_percent: 'Percentage of net assets invested in high-risk investments in the past 12 months',
  intended_percent: 'Percentage you intend to invest in the next 12 months',
  annual_income: 'Annual income in the last financial year (£)',
  net_assets: 'Net assets (£)',
  certifying_firm: 'Firm that signed the certificate',
  certified_on: 'Date of the certificate',
  balance_sheet_total: 'Balance sheet total (£)',
  net_turnover: 'Net turnover (£)',
  own_funds: 'Own funds (£)',
} as const;

/** The investor rules' figures (COBS 4.12): 10% for restricted investors, HNW income and assets, large companies. */
export const CATEGORY_THRESHOLDS = {
  restrictedPercent: '10',
  annualIncome: '100000',
  netAssets: '250000',
  certificateMonths: 36,
  balanceSheetTotal: '20000000',
  netTurnover: '40000000',
  ownFunds: '2000000',
} as const;

/** 0 to 100 with up to two decimals, checked on the text (a figure declared, compared exactly). */
const percent = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Enter a percentage such as 5 or 7.5.')
  .regex(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, 'Enter a percentage from 0 to 100.');
/** Pounds, whole or with pence; 0 is allowed (a figure declared, not money moved). */
const pounds = z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'Enter an amount in pounds, such as 120000.');
const confirmed = z.literal(true, { error: 'Confirm the statement is true.' });

export const CategoriseBodySchema = z.discriminatedUnion('category', [
  z.strictObject({
    category: z.literal('restricted'),
    past_percent: percent,
    intended_percent: percent,
    confirmed,
  }),
  z.strictObject({
    category: z.literal('high_net_worth'),
    annual_income: pounds,
    net_assets: pounds,
    confirmed,
  }),
  z.strictObject({
    category: z.literal('sophisticated'),
    certifying_firm: z.string().trim().min(2, 'Enter the name of the firm.').max(200),
    certified_on: z.iso.date('Enter the date of the certificate.'),
    confirmed,
  }),
  z.strictObject({
    category: z.literal('large_undertaking'),
    balance_sheet_total: pounds,
    net_turnover: pounds,
    own_funds: pounds,
    confirmed,
  }),
]);
export type CategoriseBody = z.infer<typeof CategoriseBodySchema>;

export const JourneyStepSchema = z.enum([
  'categorisation',
  'assessment',
  'cooling_off',
  'confirm',
  'complete',
]);
export type JourneyStep = z.infer<typeof JourneyStepSchema>;

/** The steps in order, as the screen's progress counts them. */
export const JOURNEY_STEP_INDEX: Record<JourneyStep, number> = {
  categorisation: 0,
  assessment: 1,
  cooling_off: 2,
  confirm: 3,
  complete: 4,
};

export const AssessmentResultSchema = z.object({
  score: z.number().int(),
  total: z.number().int(),
  passed: z.boolean(),
  submitted_at: z.string(),
});

export const InvestorJourneySchema = z.object({
  step: JourneyStepSchema,
  account_type: z.enum(['Individual', 'Corporate']),
  first_name: z.string(),
  category: InvestorCategorySchema.nullable(),
  categorised_at: z.string().nullable(),
  assessment: z.object({
    questions: z.number().int(),
    pass_mark: z.number().int(),
    last: AssessmentResultSchema.nullable(),
    /** After a fail: when the next attempt may start; null when one may start now. */
    retake_at: z.string().nullable(),
    passed_at: z.string().nullable(),
  }),
  cooling_off_ends_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type InvestorJourney = z.infer<typeof InvestorJourneySchema>;

export const AssessmentQuestionSchema = z.object({
  id: z.string(),
  text: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
});
export type AssessmentQuestionView = z.infer<typeof AssessmentQuestionSchema>;

export const AssessmentAttemptSchema = z.object({
  id: z.uuid(),
  questions: z.array(AssessmentQuestionSchema),
});
export type AssessmentAttempt = z.infer<typeof AssessmentAttemptSchema>;

const answerKey = z.string().regex(/^[a-z0-9-]{1,40}$/);
export const SubmitAssessmentBodySchema = z.strictObject({
  answers: z
    .record(answerKey, answerKey)
    .refine((answers) => Object.keys(answers).length <= 20, 'Too many answers.'),
});

export const WarningNameSchema = z.enum(['personalised']);

export const getInvestorJourney = defineEndpoint({
  method: 'GET',
  path: '/api/v1/investor/journey',
  summary: 'Where the customer is in the first-investment journey',
  responses: { 200: z.object({ data: InvestorJourneySchema }) },
});

export const categoriseInvestor = defineEndpoint({
  method: 'POST',
  path: '/api/v1/investor/categorisation',
  summary: 'The investor type the customer declares, with its figures and their confirmation',
  body: CategoriseBodySchema,
  responses: { 200: z.object({ data: InvestorJourneySchema, message: z.string() }) },
});

export const startAssessment = defineEndpoint({
  method: 'POST',
  path: '/api/v1/investor/assessment',
  summary: 'Draws a new attempt of the appropriateness assessment: random questions, shuffled answers',
  responses: { 200: z.object({ data: AssessmentAttemptSchema }) },
});

export const submitAssessment = defineEndpoint({
  method: 'POST',
  path: '/api/v1/investor/assessment/{attemptId}',
  summary: 'Answers an attempt, once; a pass starts the 24-hour cooling-off period',
  params: z.strictObject({ attemptId: z.uuid() }),
  body: SubmitAssessmentBodySchema,
  responses: {
    200: z.object({ data: InvestorJourneySchema, result: AssessmentResultSchema, message: z.string() }),
  },
});

export const recordWarningShown = defineEndpoint({
  method: 'POST',
  path: '/api/v1/investor/warnings/shown',
  summary: 'Records that a risk warning was shown to the customer (evidence)',
  body: z.strictObject({ warning: WarningNameSchema }),
  responses: { 200: z.object({ data: z.object({ recorded_at: z.string() }) }) },
});

export const confirmFirstInvestment = defineEndpoint({
  method: 'POST',
  path: '/api/v1/investor/confirm',
  summary: 'After the cooling-off period: accepts the personalised risk warning and completes the journey',
  body: z.strictObject({ accepted: z.literal(true) }),
  responses: { 200: z.object({ data: InvestorJourneySchema, message: z.string() }) },
});

// ---- back office ----

export const InvestorEvidenceEventSchema = z.object({
  id: z.number().int(),
  step: z.string(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type InvestorEvidenceEvent = z.infer<typeof InvestorEvidenceEventSchema>;

export const InvestorEvidenceSchema = z.object({
  customer: z.object({
    id: z.number().int(),
    reference: z.string(),
    name: z.string(),
    account_type: z.enum(['Individual', 'Corporate']),
  }),
  journey: InvestorJourneySchema,
  events: z.array(InvestorEvidenceEventSchema),
});
export type InvestorEvidence = z.infer<typeof InvestorEvidenceSchema>;

export const getInvestorEvidence = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}/investor-evidence',
  summary: "A customer's first-investment journey: every step and warning, with times",
  params: z.strictObject({ userId: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.object({ data: InvestorEvidenceSchema }) },
});

/** The same record as one JSON file, for a regulator or an auditor (compliance; audited). */
export const exportInvestorEvidence = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers/{userId}/investor-evidence/export',
  summary: "A customer's first-investment evidence record as one JSON file (compliance; audited)",
  params: getInvestorEvidence.params,
  responses: { 200: z.string() },
});

export function investorEvidenceFilename(reference: string): string {
  return `Florin investor evidence ${reference}.json`;
}
