import { z } from 'zod';
import { FIAT_CODES, decimalPlaces, scaleOf } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';
import { DecimalStringSchema, fitsColumn, tooLargeText, upTo } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * Fiat money in and out (issue 7; spec 001 sections 2–9): the customer's bank
 * account per currency, the house's deposit details, fiat withdrawals with
 * their 2FA code, and the back office's incoming transfers, suspense list and
 * payout queue. Texts in quotes in the spec are kept word for word.
 */

export const FIAT_TEXTS = {
  // spec 001 §4, §5, §8
  accountNotLive: 'Your account is not live!',
  balanceTooLow: 'Your remaining balance is not enough to perform this transaction.',
  passcodeRequired: 'Please provide 2FA Code.',
  enterAmount: 'Please Enter Amount.',
  bankAccountNotSet: 'Valid bank account to withdraw has not been set',
  transactionSuccessful: 'Transaction Successful',
  codeSent: '2fa passcode sent please check email!',
  bankAccountAdded: 'Bank Account Added.',
  bankAccountUpdated: 'Bank Account Updated.',
  registerBankTitle: 'Register Bank Details!',
  registerBankText: 'You need to register your bank account first to withdraw',
  noBankAccount: 'You need to register your Bank Account',
  // ours (docs/decisions.md, 2026-11-23)
  amountFormat: 'Enter an amount such as 10 or 10.50.',
  amountDecimals: 'Enter at most 2 decimal places.',
  amountPositive: 'Enter an amount greater than zero.',
  wrongPasscode: 'Wrong Passcode.',
  codeExpired: 'Verification Code Expired',
  emailCodesOff: 'E-mailed codes are not switched on for your account: use your authenticator app.',
  bankAccountUnverified:
    'Your bank account is not verified yet. It is verified once a deposit from it in your name has arrived, or by our team.',
  bankDetailsChanged:
    'Your bank details changed recently: for your safety, withdrawals are possible again from',
  bankDetailsMismatch: 'The bank details sent do not match your registered bank account.',
  bankAccountExists: 'You already have a bank account in this currency: update it instead.',
  currencyMismatch: 'The currency of a bank account cannot be changed.',
  twoFactorResetWait:
    'Your two-factor authentication was reset recently: withdrawals are possible again from',
  sourceOfWealthPending: 'Please answer the source-of-wealth questions before withdrawing.',
  nameRequired: 'The Bank Name field is required.',
  nameTooLong: 'The name may be at most 100 characters.',
  sortCodeInvalid: 'The sort code must be 6 digits, e.g. 12-34-56.',
  accountNumberInvalid: 'The account number must be 8 digits.',
  ibanRequired: 'The IBAN field is required.',
  ibanInvalid: 'This IBAN is not valid: please check it.',
  ibanMismatch: 'The two IBAN fields do not match.',
  bicInvalid: 'Enter the BIC: 8 or 11 letters and digits, e.g. DEUTDEFF.',
  withdrawalCancelled: 'Withdrawal cancelled. The money is back in your balance.',
  notPending: 'Only a pending withdrawal can be cancelled.',
  beingPaid: 'This withdrawal is already on its way to your bank and can no longer be cancelled.',
  // back office
  depositCredited: 'The transfer is credited to the customer.',
  depositSuspense: 'The transfer is in the suspense list.',
  depositDuplicate: 'This bank transaction was recorded before: nothing was credited again.',
  depositAssigned: 'The transfer is credited to the customer.',
  depositReturned: 'The transfer is marked as returned to the payer.',
  depositNotInSuspense: 'This transfer is not in the suspense list.',
  customerNotFound: 'No customer has this id.',
  customerNotLive: 'The customer is not live or is on hold: they cannot receive deposits.',
  withdrawalApproved: 'Withdrawal approved. Another staff member can now mark it paid.',
  withdrawalPaid: 'Withdrawal marked as paid.',
  payoutFileEmpty: 'No withdrawal is waiting for a payout file.',
  payoutFileMade: 'The payout file is downloaded. Pay it from the bank, then mark each withdrawal paid.',
  withdrawalRejected: 'Withdrawal rejected. The money is back in the customer’s balance.',
  approvalNotNeeded: 'This withdrawal does not need a second approval.',
  alreadyApproved: 'This withdrawal is already approved.',
  needsApproval: 'This withdrawal needs a second staff member’s approval before it is paid.',
  approverCannotPay: 'You approved this withdrawal: another staff member must mark it paid.',
  notOpen: 'This withdrawal is no longer waiting for payment.',
  customerOnHold: 'The customer’s account is on hold: this payout waits until compliance lifts the hold.',
  inPayoutFile:
    'This withdrawal is in a payout file sent to the bank. Reject it only once the bank has returned the payment.',
  bankAccountVerified: 'The bank account is verified.',
  alreadyVerified: 'This bank account is already verified.',
  settingsSaved: 'Deposit details saved.',
  csvEmpty: 'The file has no lines after its header.',
  csvMissingColumn: 'The file has no column named',
  csvTooManyLines: 'A statement may have at most 2,000 lines.',
} as const;

export const FiatCurrencySchema = z.enum(FIAT_CODES);
export type FiatCurrency = z.infer<typeof FiatCurrencySchema>;

/** The spec's currency_code: null or absent means GBP. */
const CurrencyCodeSchema = FiatCurrencySchema.nullish();

/**
 * What POST /api/v1/mobile/request-2fa may mail a code for (customers whose second factor is
 * e-mailed codes): the withdrawals, a referral earnings claim and setting up an auto trade.
 */
export const FIAT_2FA_PURPOSES = [
  'Crypto Withdraw(2fa)',
  'Fiat Withdraw(2fa)',
  'Referral Earning(2fa)',
  'Auto Trade(2fa)',
] as const;
export type Fiat2faPurpose = (typeof FIAT_2FA_PURPOSES)[number];

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ok = z.object({ message: z.string() });

// ---- bank details: formats ----

/** Spaces and dashes are how people write these; they are not part of the number. */
export function normaliseBankNumber(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** ISO 13616: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function isValidIban(text: string): boolean {
  const iban = normaliseBankNumber(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export function isValidBic(text: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(normaliseBankNumber(text));
}

// ---- customer: bank account ----

/** The spec's bank record (001 §3) plus whether withdrawals may go to it yet. */
export const BankAccountSchema = z.object({
  id: z.number().int(),
  name_of_account: z.string(),
  /** GBP: the account number; EUR/USD: the BIC (the form's label is "Account Number or BIC Code"). */
  bank_account_number: z.string(),
  /** GBP: the sort code; EUR/USD: the IBAN (the form's label is "Sort Code or IBAN"). */
  bank_sort_code: z.string(),
  /** null means GBP. */
  currency_code: FiatCurrencySchema.nullable(),
  international_iban: z.string().nullable(),
  currency_symbol_str: z.string(),
  verified: z.boolean(),
  verified_at: isoDateTime.nullable(),
  /** After a change of details withdrawals wait 24 hours (DECISIONS.md); null when they need not wait. */
  withdrawals_allowed_from: isoDateTime.nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type BankAccount = z.infer<typeof BankAccountSchema>;

const bankAccountFields = {
  name_of_account: z
    .string({ error: FIAT_TEXTS.nameRequired })
    .trim()
    .min(1, FIAT_TEXTS.nameRequired)
    .max(100, FIAT_TEXTS.nameTooLong),
  currency_code: CurrencyCodeSchema,
  bank_account_number: z.string().max(40).default(''),
  bank_sort_code: z.string().max(40).default(''),
  international_iban: z.string().max(40).nullish(),
};

type BankFields = {
  currency_code?: FiatCurrency | null;
  bank_account_number?: string;
  bank_sort_code?: string;
  international_iban?: string | null;
};

export type NormalisedBankFields = {
  currency: FiatCurrency;
  accountNumber: string | null;
  sortCode: string | null;
  iban: string | null;
  bic: string | null;
};

/** The bank fields as stored: numbers without spaces or dashes, per currency (IBAN from either field). */
export function normaliseBankFields(value: BankFields): NormalisedBankFields {
  const currency = value.currency_code ?? 'GBP';
  const accountNumber = normaliseBankNumber(value.bank_account_number ?? '');
  const sortCode = normaliseBankNumber(value.bank_sort_code ?? '');
  if (currency === 'GBP') return { currency, accountNumber, sortCode, iban: null, bic: null };
  const iban = normaliseBankNumber(value.international_iban ?? '') || sortCode;
  return { currency, accountNumber: null, sortCode: null, iban, bic: accountNumber };
}

/** Checks the formats per currency, with a message per field. */
function refineBankFields(value: BankFields, ctx: z.RefinementCtx): void {
  const sortCode = normaliseBankNumber(value.bank_sort_code ?? '');
  const fields = normaliseBankFields(value);
  if (fields.currency === 'GBP') {
    if (!/^\d{6}$/.test(fields.sortCode ?? ''))
      ctx.addIssue({ code: 'custom', path: ['bank_sort_code'], message: FIAT_TEXTS.sortCodeInvalid });
    if (!/^\d{8}$/.test(fields.accountNumber ?? ''))
      ctx.addIssue({
        code: 'custom',
        path: ['bank_account_number'],
        message: FIAT_TEXTS.accountNumberInvalid,
      });
    return;
  }
  if (!fields.iban)
    ctx.addIssue({ code: 'custom', path: ['international_iban'], message: FIAT_TEXTS.ibanRequired });
  else if (!isValidIban(fields.iban))
    ctx.addIssue({ code: 'custom', path: ['international_iban'], message: FIAT_TEXTS.ibanInvalid });
  else if (sortCode && sortCode !== fields.iban)
    ctx.addIssue({ code: 'custom', path: ['bank_sort_code'], message: FIAT_TEXTS.ibanMismatch });
  if (!isValidBic(fields.bic ?? ''))
    ctx.addIssue({ code: 'custom', path: ['bank_account_number'], message: FIAT_TEXTS.bicInvalid });
}

export const CreateBankAccountBodySchema = z.strictObject(bankAccountFields).superRefine(refineBankFields);
export type CreateBankAccountBody = z.input<typeof CreateBankAccountBodySchema>;

export const UpdateBankAccountBodySchema = z
  .strictObject({ ...bankAccountFields, id: z.coerce.number().int().positive().max(2_147_483_647) })
  .superRefine(refineBankFields);
export type UpdateBankAccountBody = z.input<typeof UpdateBankAccountBodySchema>;

export const getBankAccountDetails = defineEndpoint({
  method: 'GET',
  path: '/api/v1/bank-account/details',
  summary: "The signed-in customer's bank account in a currency (GBP unless asked), and all of them",
  query: z.strictObject({ currency_code: FiatCurrencySchema.optional() }),
  responses: {
    200: z.object({ data: BankAccountSchema.nullable(), accounts: z.array(BankAccountSchema) }),
  },
});

export const createBankAccount = defineEndpoint({
  method: 'POST',
  path: '/api/v1/bank-account/create',
  summary: 'Register the customer’s bank account for a currency (one per currency)',
  body: CreateBankAccountBodySchema,
  responses: { 200: z.object({ data: BankAccountSchema, message: z.string() }) },
});

export const updateBankAccount = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/bank-account/update',
  summary: 'Change the customer’s bank account (verification resets; withdrawals wait 24 hours)',
  body: UpdateBankAccountBodySchema,
  responses: { 200: z.object({ data: BankAccountSchema, message: z.string() }) },
});

// ---- customer: where to send money ----

export const InternationalDepositDetailsSchema = z.object({
  currency: FiatCurrencySchema,
  company_name: z.string(),
  bic: z.string(),
  iban: z.string(),
});

export const DepositBankInfoSchema = z.object({
  'Account Name': z.string(),
  'Account Number': z.string(),
  'Sort Code': z.string(),
  Bank: z.string(),
  /** The customer's user_identification: the reference their transfer must carry. */
  reference: z.string(),
  /** EUR and USD: company name, BIC and IBAN (DECISIONS.md). */
  international: z.array(InternationalDepositDetailsSchema),
});
export type DepositBankInfo = z.infer<typeof DepositBankInfoSchema>;

export const getDepositBankInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v1/bank-account/deposit',
  summary: 'Where to send a bank transfer, and the reference to use',
  responses: { 200: z.object({ data: DepositBankInfoSchema }) },
});

// ---- customer: withdrawals ----

export const request2fa = defineEndpoint({
  method: 'POST',
  path: '/api/v1/mobile/request-2fa',
  summary: 'E-mail a one-time code for a withdrawal (customers with e-mailed codes switched on)',
  body: z.strictObject({ purpose: z.enum(FIAT_2FA_PURPOSES) }),
  responses: { 200: ok },
});

/** A fiat amount from the form: the spec's texts for empty; at most 2 decimals. */
export const FiatAmountSchema = z
  .string({ error: FIAT_TEXTS.enterAmount })
  .trim()
  .min(1, FIAT_TEXTS.enterAmount)
  .superRefine((text, ctx) => {
    if (text === '') return;
    if (/^-\d+(\.\d+)?$/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountPositive });
    else if (!/^\d+(\.\d+)?$/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountFormat });
    else if ((decimalPlaces(text) ?? 0) > scaleOf('GBP'))
      ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountDecimals });
    else if (!/[1-9]/.test(text)) ctx.addIssue({ code: 'custom', message: FIAT_TEXTS.amountPositive });
    else if (!fitsColumn(text, scaleOf('GBP'))) ctx.addIssue({ code: 'custom', message: tooLargeText() });
  });

/**
 * The spec's payload (001 §7). The bank fields are optional: the money goes to the registered,
 * verified account of the currency; when sent they must match it.
 */
export const FiatWithdrawBodySchema = z.strictObject({
  amount: FiatAmountSchema,
  currency_code: CurrencyCodeSchema,
  passcode: z.string().trim().max(20).nullish(),
  bank_sort_code: z.string().max(40).nullish(),
  bank_account_number: z.string().max(40).nullish(),
  name_of_account: z.string().max(100).nullish(),
});
export type FiatWithdrawBody = z.input<typeof FiatWithdrawBodySchema>;

export const FIAT_WITHDRAWAL_STATUSES = ['pending', 'approved', 'paid', 'rejected', 'cancelled'] as const;
export const FiatWithdrawalStatusSchema = z.enum(FIAT_WITHDRAWAL_STATUSES);
export type FiatWithdrawalStatus = z.infer<typeof FiatWithdrawalStatusSchema>;

/** Lifecycle (CONVENTIONS.md 7): approved is the first of two staff decisions on a large withdrawal. */
export const FIAT_WITHDRAWAL_TRANSITIONS: Record<FiatWithdrawalStatus, readonly FiatWithdrawalStatus[]> = {
  pending: ['approved', 'paid', 'rejected', 'cancelled'],
  approved: ['paid', 'rejected'],
  paid: [],
  rejected: [],
  cancelled: [],
};

export const FIAT_WITHDRAWAL_STATUS_LABELS: Record<FiatWithdrawalStatus, string> = {
  pending: 'Pending',
  approved: 'Pending',
  paid: 'Paid',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

export const FiatWithdrawalSchema = z.object({
  id: z.string(),
  currency: FiatCurrencySchema,
  /** Leaves the balance (fee included). */
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** "You Will Get": amount − fee, what reaches the bank account. */
  amount_receive: DecimalStringSchema,
  status: FiatWithdrawalStatusSchema,
  name_of_account: z.string(),
  /** The last 4 characters of the account number or IBAN. */
  account_ending: z.string(),
  can_cancel: z.boolean(),
  reject_reason: z.string().nullable(),
  created_at: isoDateTime,
  paid_at: isoDateTime.nullable(),
});
export type FiatWithdrawal = z.infer<typeof FiatWithdrawalSchema>;

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const fiatWithdraw = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/withdraw',
  summary:
    'Withdraw fiat to the registered, verified bank account (holds the amount). Needs the Idempotency-Key header.',
  body: FiatWithdrawBodySchema,
  responses: { 200: z.object({ data: FiatWithdrawalSchema, message: z.string() }) },
});

export const cancelFiatWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/v1/users/withdraw/{id}/cancel',
  summary: 'Cancel one of the customer’s pending fiat withdrawals (the hold is released)',
  params: z.strictObject({ id: idParam }),
  responses: { 200: z.object({ data: FiatWithdrawalSchema, message: z.string() }) },
});

/** What the deposit/withdraw screen needs to draw the form: minimum, fee rule, balance. */
export const FiatWithdrawInfoSchema = z.object({
  currency: FiatCurrencySchema,
  currency_symbol: z.string(),
  minimum: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** Amounts of at least this pay no fee. */
  fee_free_from: DecimalStringSchema.nullable(),
  available: DecimalStringSchema,
  /** Whether withdraw needs `passcode`: the customer has 2FA or e-mailed codes. */
  passcode_required: z.boolean(),
  /** Whether the Send 2FA button mails a code (platform_2fa_mobile). */
  email_codes: z.boolean(),
  /** Staff reset the customer's 2FA less than 24 hours ago: withdrawals are possible from this moment. */
  blocked_until: isoDateTime.nullable(),
});

export const getFiatWithdrawInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v1/fiat/withdraw-info',
  summary: 'Minimum, fee, available balance and 2FA needs for a fiat withdrawal',
  query: z.strictObject({ currency_code: FiatCurrencySchema.optional() }),
  responses: { 200: z.object({ data: FiatWithdrawInfoSchema }) },
});

export const FiatActivitySchema = z.object({
  /** "deposit:12" or "withdrawal:34". */
  id: z.string(),
  type: z.enum(['deposit', 'withdrawal']),
  currency: FiatCurrencySchema,
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  status: z.string(),
  status_label: z.string(),
  /** For a withdrawal: its id for cancel, when it may still be cancelled. */
  withdrawal: FiatWithdrawalSchema.nullable(),
  created_at: isoDateTime,
});
export type FiatActivity = z.infer<typeof FiatActivitySchema>;

export const FIAT_ACTIVITY_PAGE_SIZE = 20;

export const listFiatActivity = defineEndpoint({
  method: 'GET',
  path: '/api/v1/fiat/transactions',
  summary: "The customer's fiat deposits and withdrawals, newest first",
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    currency_code: FiatCurrencySchema.optional(),
  }),
  responses: { 200: pageSchema(FiatActivitySchema) },
});

// ---- back office (finance) ----

export const FiatBankSettingsSchema = z.object({
  currency: FiatCurrencySchema,
  account_name: z.string(),
  account_number: z.string(),
  sort_code: z.string(),
  bank_name: z.string(),
  iban: z.string(),
  bic: z.string(),
  /** Withdrawals of at least this need a second staff member's approval. */
  second_approval_from: DecimalStringSchema,
  updated_at: isoDateTime,
});
export type FiatBankSettings = z.infer<typeof FiatBankSettingsSchema>;

const text = (max: number) => z.string().trim().max(max);

export const listFiatBankSettings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/fiat/settings',
  summary: 'The house’s deposit details and the second-approval amount, per currency',
  responses: { 200: z.object({ data: z.array(FiatBankSettingsSchema) }) },
});

export const UpdateFiatBankSettingsBodySchema = z.strictObject({
  account_name: text(100),
  account_number: text(40),
  sort_code: text(40),
  bank_name: text(100),
  iban: text(40),
  bic: text(20),
  second_approval_from: upTo(
    z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/, FIAT_TEXTS.amountFormat)
      .refine((value) => /[1-9]/.test(value), FIAT_TEXTS.amountPositive),
    scaleOf('GBP'),
  ),
});

export const updateFiatBankSettings = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/fiat/settings/{currency}',
  summary: 'Edit the deposit details and second-approval amount of a currency',
  params: z.strictObject({ currency: FiatCurrencySchema }),
  body: UpdateFiatBankSettingsBodySchema,
  responses: { 200: z.object({ data: FiatBankSettingsSchema, message: z.string() }) },
});

export const FIAT_DEPOSIT_STATUSES = ['credited', 'suspense', 'returned'] as const;
export const FIAT_SUSPENSE_REASONS = ['unmatched', 'name_mismatch', 'customer_not_live'] as const;
export const FIAT_SUSPENSE_REASON_LABELS: Record<(typeof FIAT_SUSPENSE_REASONS)[number], string> = {
  unmatched: 'No customer has this reference',
  name_mismatch: 'The payer’s name is not the customer’s',
  customer_not_live: 'The customer is not live or is on hold',
};

export const AdminFiatDepositSchema = z.object({
  id: z.string(),
  currency: FiatCurrencySchema,
  bank_transaction_id: z.string(),
  amount: DecimalStringSchema,
  payer_name: z.string(),
  reference: z.string(),
  value_date: z.string().nullable(),
  source: z.enum(['manual', 'import']),
  status: z.enum(FIAT_DEPOSIT_STATUSES),
  suspense_reason: z.enum(FIAT_SUSPENSE_REASONS).nullable(),
  /** The customer the reference named (in suspense) or who was credited. */
  user_id: z.number().int().nullable(),
  user_identification: z.string().nullable(),
  customer_name: z.string().nullable(),
  resolution_note: z.string().nullable(),
  created_at: isoDateTime,
  resolved_at: isoDateTime.nullable(),
});
export type AdminFiatDeposit = z.infer<typeof AdminFiatDepositSchema>;

const BankTransactionIdSchema = z.string().trim().min(1, 'The bank transaction id is required.').max(100);

export const RecordFiatDepositBodySchema = z.strictObject({
  currency: FiatCurrencySchema,
  amount: FiatAmountSchema,
  payer_name: z.string().trim().min(1, 'The payer’s name is required.').max(200),
  reference: z.string().trim().max(200),
  bank_transaction_id: BankTransactionIdSchema,
  value_date: z.string().trim().max(40).nullish(),
});
export type RecordFiatDepositBody = z.input<typeof RecordFiatDepositBodySchema>;

export const FiatDepositOutcomeSchema = z.enum(['credited', 'suspense', 'duplicate']);

export const recordFiatDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/deposits',
  summary: 'Record one incoming bank transfer by hand (credited when reference and name match)',
  body: RecordFiatDepositBodySchema,
  responses: {
    200: z.object({
      data: z.object({ outcome: FiatDepositOutcomeSchema, deposit: AdminFiatDepositSchema }),
      message: z.string(),
    }),
  },
});

/** Which header of the statement holds each field; defaults are the field names themselves. */
export const StatementMappingSchema = z.strictObject({
  date: text(60).min(1).default('date'),
  amount: text(60).min(1).default('amount'),
  reference: text(60).min(1).default('reference'),
  payer: text(60).min(1).default('payer'),
  transaction_id: text(60).min(1).default('transaction_id'),
});

export const ImportStatementBodySchema = z.strictObject({
  currency: FiatCurrencySchema,
  /** The CSV file's text: a header line, then one line per transaction. */
  csv: z.string().min(1, FIAT_TEXTS.csvEmpty).max(900_000),
  mapping: StatementMappingSchema.optional(),
});
export type ImportStatementBody = z.input<typeof ImportStatementBodySchema>;

export const StatementLineResultSchema = z.object({
  /** The line's number in the file (the header is line 1). */
  line: z.number().int(),
  bank_transaction_id: z.string().nullable(),
  outcome: z.enum(['credited', 'suspense', 'duplicate', 'skipped', 'invalid']),
  message: z.string().nullable(),
  deposit_id: z.string().nullable(),
});

export const importBankStatement = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/deposits/import',
  summary:
    'Import a bank statement (CSV): matched lines credited, others to suspense; repeats credit nothing',
  body: ImportStatementBodySchema,
  responses: {
    200: z.object({
      data: z.object({
        credited: z.number().int(),
        suspense: z.number().int(),
        duplicates: z.number().int(),
        skipped: z.number().int(),
        invalid: z.number().int(),
        lines: z.array(StatementLineResultSchema),
      }),
      message: z.string(),
    }),
  },
});

export const listFiatDeposits = defineEndpoint({
  method: 'GET',
  path: '/api/admin/fiat/deposits',
  summary: 'Incoming transfers, newest first; status=suspense for the suspense list (oldest first)',
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    status: z.enum(FIAT_DEPOSIT_STATUSES).optional(),
  }),
  responses: { 200: pageSchema(AdminFiatDepositSchema) },
});

const ReasonSchema = z
  .string({ error: 'Please give the reason.' })
  .trim()
  .min(1, 'Please give the reason.')
  .max(500, 'The reason may be at most 500 characters.');

export const assignFiatDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/deposits/{id}/assign',
  summary: 'Credit a transfer in suspense to a chosen customer',
  params: z.strictObject({ id: idParam }),
  body: z.strictObject({
    user_id: z.coerce.number().int().positive().max(2_147_483_647),
    reason: ReasonSchema,
  }),
  responses: { 200: z.object({ data: AdminFiatDepositSchema, message: z.string() }) },
});

export const returnFiatDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/deposits/{id}/return',
  summary: 'Mark a transfer in suspense as returned to the payer',
  params: z.strictObject({ id: idParam }),
  body: z.strictObject({ reason: ReasonSchema }),
  responses: { 200: z.object({ data: AdminFiatDepositSchema, message: z.string() }) },
});

export const AdminFiatWithdrawalSchema = FiatWithdrawalSchema.extend({
  user_id: z.number().int(),
  user_identification: z.string(),
  customer_name: z.string(),
  email: z.string(),
  /** The bank details to pay, as they were when the customer asked. */
  account_number: z.string().nullable(),
  sort_code: z.string().nullable(),
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  needs_second_approval: z.boolean(),
  approved_by: z.string().nullable(),
  approved_at: isoDateTime.nullable(),
  paid_by: z.string().nullable(),
  payment_reference: z.string().nullable(),
  rejected_by: z.string().nullable(),
  /** When a payout file listed it: the bank is paying it, the customer can no longer cancel it. */
  exported_at: isoDateTime.nullable(),
  /** Compliance put the account on hold: the withdrawal is neither paid nor put in a payout file until lifted. */
  customer_on_hold: z.boolean(),
});
export type AdminFiatWithdrawal = z.infer<typeof AdminFiatWithdrawalSchema>;

export const listPayoutQueue = defineEndpoint({
  method: 'GET',
  path: '/api/admin/fiat/withdrawals',
  summary: 'Fiat withdrawals: open ones (pending, approved) oldest first, or by status newest first',
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    status: z.enum(['open', ...FIAT_WITHDRAWAL_STATUSES]).default('open'),
  }),
  responses: { 200: pageSchema(AdminFiatWithdrawalSchema) },
});

const WithdrawalParams = z.strictObject({ id: idParam });

export const approveFiatWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/withdrawals/{id}/approve',
  summary: 'First of two staff decisions on a large withdrawal (the payer must be someone else)',
  params: WithdrawalParams,
  body: z.strictObject({}),
  responses: { 200: z.object({ data: AdminFiatWithdrawalSchema, message: z.string() }) },
});

export const markFiatWithdrawalPaid = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/withdrawals/{id}/paid',
  summary: 'Mark a withdrawal paid (posts its hold) with the bank payment reference',
  params: WithdrawalParams,
  body: z.strictObject({
    payment_reference: z
      .string({ error: 'The payment reference is required.' })
      .trim()
      .min(1, 'The payment reference is required.')
      .max(100),
  }),
  responses: { 200: z.object({ data: AdminFiatWithdrawalSchema, message: z.string() }) },
});

export const rejectFiatWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/withdrawals/{id}/reject',
  summary: 'Reject a withdrawal with a reason the customer reads (voids its hold)',
  params: WithdrawalParams,
  body: z.strictObject({
    reason: ReasonSchema,
    /** Required once the withdrawal is in a payout file: the bank returned the payment, so nothing was paid. */
    bank_returned: z.literal(true).optional(),
  }),
  responses: { 200: z.object({ data: AdminFiatWithdrawalSchema, message: z.string() }) },
});

export const PayoutFileSchema = z.object({
  filename: z.string(),
  /** The bank's CSV: one line per withdrawal, net amounts. */
  csv: z.string(),
  withdrawals: z.number().int(),
});
export type PayoutFile = z.infer<typeof PayoutFileSchema>;

export const exportPayoutFile = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/withdrawals/export',
  summary:
    'A payout file (CSV) of the withdrawals ready to pay in a currency that no earlier file listed; listing them marks them exported',
  body: z.strictObject({ currency: FiatCurrencySchema.default('GBP') }),
  responses: { 200: z.object({ data: PayoutFileSchema, message: z.string() }) },
});

export const verifyBankAccount = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/bank-accounts/{id}/verify',
  summary: 'Verify a customer’s bank account by hand (after checking it is in their name)',
  params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: z.strictObject({ reason: ReasonSchema }),
  responses: { 200: z.object({ message: z.string() }) },
});

export const BANK_ACCOUNT_VERIFIERS = ['deposit', 'staff'] as const;

export const AdminBankAccountSchema = BankAccountSchema.extend({
  user_id: z.number().int(),
  /** What verified it: a matched deposit in the customer's name, or staff by hand; null while unverified. */
  verified_by: z.enum(BANK_ACCOUNT_VERIFIERS).nullable(),
});
export type AdminBankAccount = z.infer<typeof AdminBankAccountSchema>;

export const listCustomerBankAccounts = defineEndpoint({
  method: 'GET',
  path: '/api/admin/fiat/customers/{userId}/bank-accounts',
  summary: "A customer's registered bank accounts",
  params: z.strictObject({ userId: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.object({ data: z.array(AdminBankAccountSchema) }) },
});
