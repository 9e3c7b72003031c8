import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { CurrencyCodeSchema, FIAT_TEXTS, FiatCurrencySchema, type FiatCurrency } from './fiat.js';

/** The customer's bank account per currency, and where they send money in (fiat.ts has the texts). */

const isoDateTime = z.string();

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

// ---- the account a transfer came from ----

/** The payer's account as a statement or finance gives it: any of these, as written. */
export type PayerAccountFields = {
  sort_code?: string | null;
  account_number?: string | null;
  iban?: string | null;
  bic?: string | null;
};

/** The payer's account as stored and compared: digits only, the IBAN upper case without spaces. */
export type PayerAccount = {
  sortCode: string | null;
  accountNumber: string | null;
  iban: string | null;
  bic: string | null;
};

export type PayerAccountReading =
  | { ok: true; account: PayerAccount | null }
  | { ok: false; field: 'sort_code' | 'account_number' | 'iban'; message: string };

/**
 * The payer's account, normalised and checked; null when none was given (decision 132). A UK IBAN
 * carries the sort code and account number (GBkk BANK SSSSSS AAAAAAAA), so it is read as them too.
 */
export function readPayerAccount(fields: PayerAccountFields): PayerAccountReading {
  const sortCode = normaliseBankNumber(fields.sort_code ?? '');
  const accountNumber = normaliseBankNumber(fields.account_number ?? '');
  const iban = normaliseBankNumber(fields.iban ?? '');
  const bic = normaliseBankNumber(fields.bic ?? '');
  if ((sortCode === '') !== (accountNumber === ''))
    return {
      ok: false,
      field: sortCode ? 'account_number' : 'sort_code',
      message: FIAT_TEXTS.payerAccountIncomplete,
    };
  if (sortCode && !/^\d{6}$/.test(sortCode))
    return { ok: false, field: 'sort_code', message: FIAT_TEXTS.payerAccountInvalid };
  if (accountNumber && !/^\d{8}$/.test(accountNumber))
    return { ok: false, field: 'account_number', message: FIAT_TEXTS.payerAccountInvalid };
  if (iban && !isValidIban(iban)) return { ok: false, field: 'iban', message: FIAT_TEXTS.payerIbanInvalid };
  if (!sortCode && !iban) return { ok: true, account: null };
  const ukIban = /^GB\d{2}[A-Z]{4}(\d{6})(\d{8})$/.exec(iban);
  return {
    ok: true,
    account: {
      sortCode: sortCode || ukIban?.[1] || null,
      accountNumber: accountNumber || ukIban?.[2] || null,
      iban: iban || null,
      bic: bic || null,
    },
  };
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
