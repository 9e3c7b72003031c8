import { z } from 'zod';
import { isCountryCode, isPermittedCountry } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';

/**
 * Account verification (spec 000): the texts and field rules every step shares, the customer's
 * details and account type. The other steps live by area: kyc-documents.ts, kyc-source-of-wealth.ts,
 * kyc-company.ts, and kyc-verification-state.ts (what GET /api/v1/user says of them).
 */

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

/** A required text field: when empty, only the spec's "is required" text; at most `max` characters. */
export const required = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    // An empty field gets only the spec's "is required" text, not also a format complaint.
    .min(1, { message, abort: true })
    .max(max, `This field may be at most ${max} characters.`);

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
