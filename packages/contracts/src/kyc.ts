import { z } from 'zod';
import { isCountryCode, isOwnerStatus, isPermittedCountry } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';
import { nameSchema } from './text.js';

/** The £15,000-a-year source-of-wealth threshold (spec 000 section 9), in pounds. */
export const SOURCE_OF_WEALTH_THRESHOLD_GBP = 15_000;
/** The threshold as customers read it: £15,000. */
export const SOURCE_OF_WEALTH_THRESHOLD_TEXT = `£${SOURCE_OF_WEALTH_THRESHOLD_GBP.toLocaleString('en-GB')}`;

/** The spec's texts for verification (000 sections 4, 5 and 8), word for word; DECISIONS.md adds some. */
export const KYC_TEXTS = {
  informationMissingTitle: 'Information Missing',
  incorrectInputTitle: 'Incorrect Input',
  addressRequired: 'The Address field is required.',
  phoneRequired: 'The Phone field is required.',
  cityRequired: 'The City field is required.',
  zipRequired: 'The Post Code/Zip field is required.',
  nameRequired: 'The Name field is required.',
  companyNumberRequired: 'The Company Number field is required.',
  companyNumberInvalid: 'Please enter the company number as registered, e.g. 01234567 or SC123456.',
  companyNumberTaken: 'Company number already exists.',
  countryRequired: 'The Country field is required.',
  countryNotServed: 'We are not able to offer our services in your country.',
  birthdateRequired: 'The Date of Birth field is required.',
  birthdateFuture: 'The date of birth cannot be in the future.',
  underAge: 'You must be at least 18 years old.',
  nationalityRequired: 'The Nationality field is required.',
  taxResidenceRequired: 'The Tax Residence field is required.',
  niNumberInvalid: 'Please enter a valid National Insurance number, e.g. AB123456C.',
  taxIdRequired: 'The National Insurance number or Tax ID field is required.',
  taxIdInvalid: 'Please enter a valid tax identification number.',
  phoneInvalid: 'Please enter a valid phone number.',
  birthdateLocked: 'Your name and date of birth can only be changed by our support team.',
  directorLocked:
    "A director's or owner's name and date of birth cannot change once verification is submitted: remove them and add them again with their documents.",
  directorFailedTitle: 'Failed to add director/owner details.',
  firstNameRequired: 'The First Name field is required.',
  lastNameRequired: 'The Last Name field is required.',
  shareHoldingInvalid: 'The Shareholding % must be a number from 0 to 100.',
  shareHoldingTotal: 'The total shareholding of all directors and owners cannot exceed 100%.',
  missingSelectionTitle: 'Missing Selection',
  missingSelection: 'Please select either Owner, Director or both.',
  ownerRequired: 'A person holding more than 25% is a beneficial owner: please tick Owner.',
  directorRequired:
    "At least one person must be a director: please add the company's director, or tick Director for an owner who is one.",
  lastDirector:
    'Your company must keep at least one director: add the new director first, then remove this one.',
  ownersStatement: 'All directors and beneficial owners with more than 25% shareholding must be confirmed.',
  deleteDirectorConfirm:
    "Are you sure you want to delete this director/owner? You won't be able to revert this!",
  deleteDirectorFailed: 'Error: Failed to delete director/owner.',
  directorFileFailed: 'File upload fail.',
  pleaseChooseTitle: 'Please choose',
  pleaseChoose: 'Please select your answer to the question.',
  riskConfirmTitle: 'Are you sure?',
  riskConfirm: 'Are you sure you want to proceed without knowing the risk of crypto trading?',
  detailsRequired: 'Please give the details.',
  answersLocked:
    'Your answers were reviewed when your account was verified. To change them, please contact support.',
  fileFormat: 'File format not supported. Accepts only JPEG, JPG, PNG and PDF.',
  twoImages: 'You are required to upload two images only.',
  oneFile: 'Please upload one file.',
  tooManyUploads: 'Too many uploads. Please wait 10 minutes and try again.',
  verificationCompleteTitle: 'Account Verification Complete',
  accountTypeLocked: 'Your account type can no longer be changed.',
  stepsIncomplete: 'Please complete every verification step first.',
  accountTypeMissing: 'Please choose Individual or Corporate first.',
  documentNotForAccount: 'This document is not part of your account verification.',
  companyLocked: 'Your company name, number and country can only be changed by our support team.',
  overThresholdAnswer: `You have traded more than ${SOURCE_OF_WEALTH_THRESHOLD_TEXT} this year: please answer Yes and tell us about your source of wealth.`,
} as const;

/** Yes/No travel as 1/0 (spec 000 section 9). */
export const YesNoSchema = z.union([z.literal(0), z.literal(1)]);
export type YesNo = z.infer<typeof YesNoSchema>;

/** A beneficial owner holds more than this percentage. */
export const BENEFICIAL_OWNER_THRESHOLD_PERCENT = 25;
export const MINIMUM_AGE_YEARS = 18;

// ---- shared field rules ----

const required = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    // An empty field gets only the spec's "is required" text, not also a format complaint.
    .min(1, { message, abort: true })
    .max(max, `This field may be at most ${max} characters.`);

/** A director's or owner's name: the shared name rule (text.ts), 100 characters. */
const personName = (message: string) =>
  nameSchema({ required: message, tooLong: 'This field may be at most 100 characters.', max: 100 });

/** Residence and company country: a permitted jurisdiction (DECISIONS.md), ISO alpha-2. */
export const PermittedCountrySchema = z
  .string({ error: KYC_TEXTS.countryRequired })
  .trim()
  .toUpperCase()
  .min(1, KYC_TEXTS.countryRequired)
  .refine(isPermittedCountry, KYC_TEXTS.countryNotServed);

/** Any country (nationality, tax residence, a director's address), ISO alpha-2. */
export function anyCountrySchema(requiredMessage: string = KYC_TEXTS.countryRequired) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .toUpperCase()
    .min(1, requiredMessage)
    .refine(isCountryCode, 'Please choose a country from the list.');
}

export const PhoneSchema = required(KYC_TEXTS.phoneRequired, 40).regex(
  /^\+?[0-9][0-9 ()-]{5,30}$/,
  KYC_TEXTS.phoneInvalid,
);

/** Today's date in the UK, as YYYY-MM-DD: "no future dates" and the age test count in UK days. */
export function todayInLondon(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
}

/** Whole years between a YYYY-MM-DD birthdate and a YYYY-MM-DD day. */
export function ageOn(birthdate: string, day: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A date of birth, sent as YYYY-MM-DD, never in the future, 18 or over (DECISIONS.md). */
export const BirthdateSchema = z
  .string({ error: KYC_TEXTS.birthdateRequired })
  .trim()
  .min(1, KYC_TEXTS.birthdateRequired)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter the date of birth as YYYY-MM-DD.')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && value >= '1900-01-01', {
    message: 'Please enter a valid date of birth.',
    abort: true,
  })
  .refine((value) => value <= todayInLondon(), { message: KYC_TEXTS.birthdateFuture, abort: true })
  .refine((value) => ageOn(value, todayInLondon()) >= MINIMUM_AGE_YEARS, KYC_TEXTS.underAge);

/** HMRC's National Insurance number format (prefixes HMRC never issues are refused). */
export const NI_NUMBER_PATTERN = /^(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/;

// ---- documents ----

export const DOCUMENT_KEYS = [
  'passport',
  'national_id_front',
  'id_front',
  'id_back',
  'proof_selfie',
  'proof_address',
  'coi',
  'aoa',
  'cproof_address',
] as const;
export const DocumentKeySchema = z.enum(DOCUMENT_KEYS);
export type DocumentKey = z.infer<typeof DocumentKeySchema>;

/** What each document is called on screen (the Rejected view, the back office). */
export const DOCUMENT_LABELS: Record<DocumentKey, string> = {
  passport: 'Passport',
  national_id_front: 'National ID or Biometric Residence Permit',
  id_front: 'Driver License (front)',
  id_back: 'Driver License (back)',
  proof_selfie: 'Identification Document With Selfie',
  proof_address: 'Proof of Address',
  coi: 'Certificate of Incorporation',
  aoa: 'Articles of Association',
  cproof_address: 'Corporate Proof of Address',
};

export const DocumentSchema = z.object({
  id: z.number().int(),
  key: DocumentKeySchema,
  /** Below 0 declined, 0 awaiting review, above 0 approved. */
  is_admin_approved: z.number().int(),
  /** The reviewer's reason when declined: the customer sees it as the cause. */
  disapprove_note: z.string().nullable(),
  /** Set for a director's or owner's document. */
  director_id: z.number().int().nullable(),
  content_type: z.string(),
  created_at: z.string(),
});
export type Document = z.infer<typeof DocumentSchema>;

/** Multipart uploads: at most this size per file (the upload check refuses more). */
export const MAX_UPLOAD_MB = 10;
export const ACCEPTED_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

/**
 * `POST /api/v1/user/id-proof`, multipart: `file` (or `file[]` repeated: exactly two for a driver
 * licence, front then back) and these fields. `proof_selfie` is the selfie with the ID;
 * `companyDirectorId` uploads for a director instead of the customer.
 */
export const IdProofFieldsSchema = z.strictObject({
  doc_type: z.enum(['passport', 'national_id', 'driver_license', 'proof_selfie', 'proof_address'], {
    error: 'Please choose the document type.',
  }),
  companyDirectorId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type IdProofFields = z.infer<typeof IdProofFieldsSchema>;

export const uploadIdProof = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/id-proof',
  multipart: true,
  summary: 'Upload an identity document, the selfie with it, or a proof of address (multipart)',
  responses: {
    200: z.object({ data: z.object({ done: z.literal(1), documents: z.array(DocumentSchema) }) }),
  },
});

/**
 * `POST /api/v1/user/documents/upload`, multipart: `parameters` (JSON text of these fields) and
 * `file`. Uploads or re-uploads one document by key: the company's documents, and every declined one.
 */
export const DocumentUploadParametersSchema = z.strictObject({
  user_id: z.coerce.number().int().positive().max(2_147_483_647),
  key: DocumentKeySchema,
});
export type DocumentUploadParameters = z.infer<typeof DocumentUploadParametersSchema>;

export const uploadDocument = defineEndpoint({
  method: 'POST',
  path: '/api/v1/user/documents/upload',
  multipart: true,
  summary: 'Upload or re-upload one document by key (multipart)',
  responses: { 200: z.object({ data: DocumentSchema }) },
});

/** The stored file of one of the customer's own documents (never executed: served as an attachment). */
export const getDocumentFile = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/documents/{id}/file',
  summary: "One of the signed-in customer's document files",
  params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.unknown() },
});

// ---- address and contact details (Individual step 3) ----

/**
 * The spec's fields plus what HMRC cryptoasset reporting needs: nationality, tax residence, and
 * the National Insurance number (UK tax residents) or a foreign tax id.
 */
export const UserDetailsBodySchema = z
  .strictObject({
    country: PermittedCountrySchema,
    address: required(KYC_TEXTS.addressRequired),
    city: required(KYC_TEXTS.cityRequired, 100),
    zip: required(KYC_TEXTS.zipRequired, 20),
    phone: PhoneSchema,
    birthdate: BirthdateSchema,
    nationality: anyCountrySchema(KYC_TEXTS.nationalityRequired),
    tax_residence: anyCountrySchema(KYC_TEXTS.taxResidenceRequired),
    tax_id: z
      .string({ error: KYC_TEXTS.taxIdRequired })
      .trim()
      .toUpperCase()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .pipe(z.string().min(1, KYC_TEXTS.taxIdRequired).max(30, KYC_TEXTS.taxIdInvalid)),
  })
  .superRefine((value, context) => {
    const isUk = value.tax_residence === 'GB';
    if (isUk && !NI_NUMBER_PATTERN.test(value.tax_id)) {
      context.addIssue({ code: 'custom', path: ['tax_id'], message: KYC_TEXTS.niNumberInvalid });
    }
    if (!isUk && !/^[A-Z0-9]{4,30}$/.test(value.tax_id)) {
      context.addIssue({ code: 'custom', path: ['tax_id'], message: KYC_TEXTS.taxIdInvalid });
    }
  });
export type UserDetailsBody = z.infer<typeof UserDetailsBodySchema>;

const ok = z.object({ message: z.string() });

export const updateUserDetails = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users',
  summary:
    "Save the customer's address, contact and tax details (a live customer's new address goes back to review)",
  body: UserDetailsBodySchema,
  responses: { 200: ok },
});

// ---- account type (step 2: Individual or Corporate; step 10: Instant or Trade) ----

export const AccountTypeBodySchema = z
  .strictObject({
    account_type: z.enum(['Individual', 'Corporate', 'Instant', 'Trade'], {
      error: 'Please choose an account type.',
    }),
    /** The Trade choice carries the spec's platform 2, account_tiers_class 4, ico_confirmed 1. */
    platform: z.literal(2).optional(),
    account_tiers_class: z.literal(4).optional(),
    ico_confirmed: z.literal(1).optional(),
  })
  .superRefine((value, context) => {
    const isTrade = value.account_type === 'Trade';
    for (const field of ['platform', 'account_tiers_class', 'ico_confirmed'] as const) {
      if (isTrade && value[field] === undefined) {
        context.addIssue({ code: 'custom', path: [field], message: `The ${field} field is required.` });
      }
      if (!isTrade && value[field] !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `The ${field} field is only sent with Trade.`,
        });
      }
    }
  });
export type AccountTypeBody = z.infer<typeof AccountTypeBodySchema>;

export const updateAccountType = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users/account_type',
  summary:
    'Choose Individual or Corporate (before anything is submitted), then Instant or Trade (completes the wizard)',
  body: AccountTypeBodySchema,
  responses: { 200: ok },
});

export const confirmIco = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users/ico_confirm',
  summary: 'Record that the customer confirmed the trading-account terms',
  body: z.strictObject({ ico_confirmed: z.boolean() }),
  responses: { 200: ok },
});

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

// ---- Corporate: company, directors and owners ----

export const CompanyBodySchema = z.strictObject({
  name: nameSchema({
    required: KYC_TEXTS.nameRequired,
    tooLong: 'This field may be at most 200 characters.',
    max: 200,
  }),
  company_number: z
    .string({ error: KYC_TEXTS.companyNumberRequired })
    .trim()
    .toUpperCase()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(
      z
        .string()
        .min(1, KYC_TEXTS.companyNumberRequired)
        .regex(/^[A-Z0-9]{2,20}$/, KYC_TEXTS.companyNumberInvalid),
    ),
  address: required(KYC_TEXTS.addressRequired),
  city: required(KYC_TEXTS.cityRequired, 100),
  country: PermittedCountrySchema,
  zip: required(KYC_TEXTS.zipRequired, 20),
});
export type CompanyBody = z.infer<typeof CompanyBodySchema>;

/** Director status: 1 owner only, 2 director only, 3 both (spec 000 section 9). */
export const DirectorStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], {
  error: KYC_TEXTS.missingSelection,
});

/** Percent with up to two decimals, as text or a number. */
const ShareHoldingSchema = z
  .union([z.string(), z.number()], { error: KYC_TEXTS.shareHoldingInvalid })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, KYC_TEXTS.shareHoldingInvalid)
      .refine((value) => Number(value) <= 100, KYC_TEXTS.shareHoldingInvalid),
  );

/**
 * Whether this shareholding and status leave a beneficial owner undeclared: more than 25 % (spec
 * 000 section 9) with status 2, director only.
 */
export function isUndeclaredOwner(shareHolding: string, status: number): boolean {
  return Number(shareHolding) > BENEFICIAL_OWNER_THRESHOLD_PERCENT && !isOwnerStatus(status);
}

const directorFields = {
  firstName: personName(KYC_TEXTS.firstNameRequired),
  lastName: personName(KYC_TEXTS.lastNameRequired),
  shareHolding: ShareHoldingSchema,
  address: required(KYC_TEXTS.addressRequired),
  city: required(KYC_TEXTS.cityRequired, 100),
  zip: required(KYC_TEXTS.zipRequired, 20),
  country: anyCountrySchema(),
  phone: PhoneSchema,
  birthdate: BirthdateSchema,
  status: DirectorStatusSchema,
};

/**
 * The 25 % rule, checked as soon as the shareholding and the status are valid themselves (not
 * only once every other field is), so the form shows it with the other refusals in one go.
 */
function refuseUndeclaredOwner<Schema extends z.ZodType<{ shareHolding?: string; status: number }>>(
  schema: Schema,
): Schema {
  return schema.refine(
    (body) => body.shareHolding === undefined || !isUndeclaredOwner(body.shareHolding, body.status),
    {
      path: ['shareHolding'],
      message: KYC_TEXTS.ownerRequired,
      // Not when the body is no object at all (an issue at its root), nor either field is invalid.
      when: ({ issues }) =>
        !issues.some((issue) => {
          const [field] = issue.path ?? [];
          return field === undefined || field === 'shareHolding' || field === 'status';
        }),
    },
  );
}

export const DirectorBodySchema = refuseUndeclaredOwner(z.strictObject(directorFields));
export type DirectorBody = z.infer<typeof DirectorBodySchema>;

export const DirectorSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  /** Percent as a decimal string ("30.00"). */
  shareHolding: z.string(),
  address: z.string(),
  city: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string(),
  birthdate: z.string(),
  owner: YesNoSchema,
  director: YesNoSchema,
  status: z.number().int(),
  identity_done: YesNoSchema,
  proof_address_done: YesNoSchema,
  documents: z.array(DocumentSchema),
});
export type Director = z.infer<typeof DirectorSchema>;

export const CompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  company_number: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  zip: z.string(),
  directors: z.array(DirectorSchema),
});
export type Company = z.infer<typeof CompanySchema>;

export const saveCompany = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company',
  summary: "Create or update the Corporate customer's company",
  body: CompanyBodySchema,
  responses: { 200: z.object({ data: CompanySchema }) },
});

const DirectorParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const createDirector = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company-director',
  summary: 'Add a director or owner to the company',
  body: DirectorBodySchema,
  responses: { 201: z.object({ data: DirectorSchema }) },
});

/**
 * The spec's PUT payload (000 section 7) carries no shareholding: without it the stored one is
 * kept (and still checked against the 25 % rule with the status sent).
 */
export const DirectorUpdateBodySchema = refuseUndeclaredOwner(
  z.strictObject({ ...directorFields, shareHolding: ShareHoldingSchema.optional() }),
);
export type DirectorUpdateBody = z.infer<typeof DirectorUpdateBodySchema>;

export const updateDirector = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users/corporate/company-director/{id}',
  summary: 'Change a director or owner',
  params: DirectorParams,
  body: DirectorUpdateBodySchema,
  responses: { 200: z.object({ data: DirectorSchema }) },
});

export const deleteDirector = defineEndpoint({
  method: 'DELETE',
  path: '/api/v1/users/corporate/company-director/{id}',
  summary: 'Remove a director or owner',
  params: DirectorParams,
  responses: { 200: z.object({ success: z.literal(true) }) },
});

/** Multipart: `file` and `type`. */
export const DirectorDocumentFieldsSchema = z.strictObject({
  type: z.enum(['passport', 'national_id', 'driver_license_front', 'driver_license_back', 'proof_address'], {
    error: 'Please choose the document type.',
  }),
});

export const uploadDirectorDocument = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/corporate/company-director/{id}/document-upload',
  multipart: true,
  summary: "Upload a director's or owner's identity document or proof of address (multipart)",
  params: DirectorParams,
  responses: { 200: z.object({ data: z.object({ done: z.literal(1), director: DirectorSchema }) }) },
});

// ---- the verification state inside GET /api/v1/user ----

/** What the wizard, Getting Started and the shell read from the user (spec 000 section 3). */
export const VerificationStateSchema = z.object({
  country: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  phone: z.string().nullable(),
  birthdate: z.string().nullable(),
  nationality: z.string().nullable(),
  tax_residence: z.string().nullable(),
  tax_id: z.string().nullable(),
  is_kyc_submitted: YesNoSchema,
  is_wealth_submitted: YesNoSchema,
  is_photo_id_submitted: YesNoSchema,
  is_proof_address_submitted: YesNoSchema,
  is_selfie_submitted: YesNoSchema,
  is_sow_reset: YesNoSchema,
  /**
   * While is_sow_reset is 1: 1 when this calendar year's trades exceed the £15,000 threshold, so
   * the only answer is Yes and the full form; null when no reset is waiting.
   */
  sow_over_threshold: YesNoSchema.nullable(),
  ico_confirmed: YesNoSchema,
  account_tiers_class: z.number().int(),
  /** The wizard was finished (the completion dialog shown); staff review from here. */
  verification_completed: YesNoSchema,
  /** Declined documents still to re-upload, the customer's own and their directors'. */
  denied_documents: z.number().int(),
  /** The current document of each kind (own and company; directors' are under company.directors). */
  documents: z.array(DocumentSchema),
  kyc: KycAnswersSchema.nullable(),
  company: CompanySchema.nullable(),
  /** The mailbox the upload-failure dialog names (configuration: COMPLIANCE_EMAIL). */
  compliance_email: z.string(),
});
export type VerificationState = z.infer<typeof VerificationStateSchema>;
