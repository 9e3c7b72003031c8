import { z } from 'zod';
import { scaleOf } from '@florin/domain';
import { defineEndpoint } from './endpoint.js';
import { FIAT_TEXTS, FiatCurrencySchema } from './fiat.js';
import { BankAccountSchema, readPayerAccount } from './fiat-bank-accounts.js';
import { FIAT_WITHDRAWAL_STATUSES, FiatAmountSchema, FiatWithdrawalSchema } from './fiat-withdrawals.js';
import { DecimalStringSchema, upTo } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * The back office's side of fiat (finance): the house's deposit details, incoming transfers and the
 * suspense list, the payout queue, and customers' bank accounts. fiat.ts has the texts.
 */

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

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
export const FIAT_SUSPENSE_REASONS = [
  'unmatched',
  'name_mismatch',
  'customer_not_live',
  'unknown_account',
] as const;
export const FIAT_SUSPENSE_REASON_LABELS: Record<(typeof FIAT_SUSPENSE_REASONS)[number], string> = {
  unmatched: 'No customer has this reference',
  name_mismatch: 'The payer’s name is not the customer’s',
  customer_not_live: 'The customer is not live or is on hold',
  unknown_account: 'The money came from an account the customer has not registered',
};

export const AdminFiatDepositSchema = z.object({
  id: z.string(),
  currency: FiatCurrencySchema,
  bank_transaction_id: z.string(),
  amount: DecimalStringSchema,
  payer_name: z.string(),
  /** The account the money came from, when the statement or finance gave it (decision 132). */
  payer_sort_code: z.string().nullable(),
  payer_account_number: z.string().nullable(),
  payer_iban: z.string().nullable(),
  payer_bic: z.string().nullable(),
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

export const RecordFiatDepositBodySchema = z
  .strictObject({
    currency: FiatCurrencySchema,
    amount: FiatAmountSchema,
    payer_name: z.string().trim().min(1, 'The payer’s name is required.').max(200),
    reference: z.string().trim().max(200),
    bank_transaction_id: BankTransactionIdSchema,
    value_date: z.string().trim().max(40).nullish(),
    /** The account the money came from: GBP a sort code and account number, EUR/USD an IBAN (and BIC). */
    payer_sort_code: z.string().trim().max(20).nullish(),
    payer_account_number: z.string().trim().max(20).nullish(),
    payer_iban: z.string().trim().max(50).nullish(),
    payer_bic: z.string().trim().max(20).nullish(),
  })
  .superRefine((body, ctx) => {
    const reading = readPayerAccount({
      sort_code: body.payer_sort_code,
      account_number: body.payer_account_number,
      iban: body.payer_iban,
      bic: body.payer_bic,
    });
    if (!reading.ok)
      ctx.addIssue({ code: 'custom', path: [`payer_${reading.field}`], message: reading.message });
  });
export type RecordFiatDepositBody = z.input<typeof RecordFiatDepositBodySchema>;

export const FiatDepositOutcomeSchema = z.enum(['credited', 'suspense', 'duplicate']);

export const recordFiatDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/fiat/deposits',
  summary:
    'Record one incoming bank transfer by hand (credited when reference and name match, and the account is the registered one when given)',
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
  /** The payer's account columns: optional, used when the statement has them. */
  sort_code: text(60).min(1).optional(),
  account_number: text(60).min(1).optional(),
  iban: text(60).min(1).optional(),
});

export const STATEMENT_FORMATS = ['csv', 'camt053'] as const;

export const ImportStatementBodySchema = z
  .strictObject({
    currency: FiatCurrencySchema,
    /** csv: a CSV file with a column mapping; camt053: an ISO 20022 camt.053 statement (XML). */
    format: z.enum(STATEMENT_FORMATS).default('csv'),
    /** The CSV file's text: a header line, then one line per transaction. */
    csv: z.string().min(1, FIAT_TEXTS.csvEmpty).max(900_000).optional(),
    /** The camt.053 file's text. */
    xml: z.string().min(1, FIAT_TEXTS.statementFileMissing).max(900_000).optional(),
    mapping: StatementMappingSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const field = body.format === 'camt053' ? 'xml' : 'csv';
    if (body[field] === undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: FIAT_TEXTS.statementFileMissing });
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
    'Import a bank statement (CSV or camt.053): matched lines credited, others to suspense; repeats credit nothing',
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
