import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import {
  type Fiat2faPurpose,
  AppError,
  FIAT_TEXTS,
  FIAT_WITHDRAWAL_STATUS_LABELS,
  FIAT_ACTIVITY_PAGE_SIZE,
  listFiatActivity,
  listFiatDeposits,
  listPayoutQueue,
  normaliseBankFields,
  type AdminFiatDeposit,
  type AdminFiatWithdrawal,
  type BankAccount,
  type DepositBankInfo,
  type FiatActivity,
  type FiatBankSettings,
  type FiatCurrency,
  type FiatWithdrawal,
  type FiatWithdrawalStatus,
  type Page,
  type PayoutFile,
  waitUntilText,
  EMAILED_CODE_MINUTES,
} from '@florin/contracts';
import { AmountFormatError, formatAmount, parseAmount } from '@florin/domain';
import { ON_HOLD, type DB, type FiatSuspenseReason } from '../../db/schema.js';
import type { DomainCheck, Ledger, Posting } from '../../ledger/index.js';
import type { UserEvents } from '../realtime/index.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { SecondFactor } from '../../security/second-factor.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { withdrawalsBlockedUntil } from '../compliance/customer-service.js';
import type { Notifier } from '../notifications/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import { readPage } from '../../http/pages.js';
import { csvLine, parseCsv } from '../../http/csv.js';
import { isPayerTheCustomer, referencesIn } from './matching.js';
import type {
  AdminWithdrawalRow,
  BankAccountRow,
  DepositRow,
  FiatCustomer,
  FiatRepository,
  FiatSettingsRow,
  WithdrawalRow,
} from './repository.js';

/** DECISIONS.md: after bank details change (or are first given), fiat withdrawals wait this long. */
export const BANK_CHANGE_WAIT_HOURS = 24;
export const FIAT_WITHDRAW_PURPOSE = 'Fiat Withdraw(2fa)';

/** How the mailed code names what it confirms. */
const CODE_PURPOSE_PHRASES: Record<Fiat2faPurpose, string> = {
  'Fiat Withdraw(2fa)': 'a fiat withdrawal',
  'Crypto Withdraw(2fa)': 'a crypto withdrawal',
  'Referral Earning(2fa)': 'a claim of your referral earnings',
  'Auto Trade(2fa)': 'setting up an auto trade',
};
/** Lines one statement import takes. */
export const MAX_STATEMENT_LINES = 2_000;

const CURRENCY_SYMBOLS: Record<FiatCurrency, string> = { GBP: '£', EUR: '€', USD: '$' };

type Answer<T> = { data: T; message: string };

export type FiatServiceDeps = {
  db: Kysely<DB>;
  repository: FiatRepository;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: UserEvents;
  /** Mails the one-time codes of customers with platform_2fa_mobile. */
  emailedCodes: EmailedCodes;
  secondFactor: SecondFactor;
  /** Spec 000 §6: a customer whose verification is incomplete does not withdraw. */
  verification: VerificationGate;
  /** What the waits after a 2FA reset or a change of bank details are judged by (the app's clock). */
  clock: Clock;
};

export type FiatService = ReturnType<typeof createFiatService>;

function refused(field: 'amount' | 'passcode', message: string): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

function isLive(customer: Pick<FiatCustomer, 'status' | 'block_status'>): boolean {
  return customer.status === 1 && customer.block_status !== ON_HOLD;
}

/**
 * What must hold before money leaves a customer for their bank: a live account not on hold, source of wealth
 * answered when staff or the £15,000 threshold asked again, and no wait after a staff 2FA reset at `now`.
 * Fiat withdrawals and affiliate claims (referrals) both check it.
 */
export function checkMayPayOut(
  customer: Pick<FiatCustomer, 'status' | 'block_status' | 'is_sow_reset' | 'two_factor_reset_at'>,
  now: Date,
): void {
  if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
  if (customer.is_sow_reset === 1) throw new AppError('FORBIDDEN', FIAT_TEXTS.sourceOfWealthPending);
  const until = withdrawalsBlockedUntil(customer, now);
  if (until) throw new AppError('FORBIDDEN', waitUntilText(FIAT_TEXTS.twoFactorResetWait, until));
}

function asCurrency(code: string): FiatCurrency {
  return code as FiatCurrency;
}

function money(units: string | bigint, currency: string): string {
  return formatAmount(BigInt(units), asCurrency(currency));
}

function withdrawalsAllowedFrom(row: Pick<BankAccountRow, 'details_changed_at'>, now: Date): Date | null {
  const from = new Date(row.details_changed_at.getTime() + BANK_CHANGE_WAIT_HOURS * 3_600_000);
  return from > now ? from : null;
}

/** The account as the customer sees it at `now` (whether its wait is over). */
export function toBankAccount(row: BankAccountRow, now: Date): BankAccount {
  const currency = asCurrency(row.currency);
  const isGbp = currency === 'GBP';
  return {
    id: row.id,
    name_of_account: row.name_of_account,
    bank_account_number: (isGbp ? row.account_number : row.bic) ?? '',
    bank_sort_code: (isGbp ? row.sort_code : row.iban) ?? '',
    currency_code: currency,
    international_iban: isGbp ? null : row.iban,
    currency_symbol_str: CURRENCY_SYMBOLS[currency],
    verified: row.verified_at !== null,
    verified_at: row.verified_at?.toISOString() ?? null,
    withdrawals_allowed_from: withdrawalsAllowedFrom(row, now)?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function endingOf(row: { account_number: string | null; iban: string | null }): string {
  return (row.account_number ?? row.iban ?? '').slice(-4);
}

function toWithdrawal(row: WithdrawalRow): FiatWithdrawal {
  const amount = BigInt(row.amount);
  const fee = BigInt(row.fee);
  return {
    id: row.id,
    currency: asCurrency(row.currency),
    amount: money(amount, row.currency),
    fee: money(fee, row.currency),
    amount_receive: money(amount - fee, row.currency),
    status: row.status,
    name_of_account: row.name_of_account,
    account_ending: endingOf(row),
    // Once a payout file lists it the bank is paying it: cancelling then would pay it twice.
    can_cancel: row.status === 'pending' && row.exported_at === null,
    reject_reason: row.reject_reason,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

function toAdminWithdrawal(row: AdminWithdrawalRow): AdminFiatWithdrawal {
  return {
    ...toWithdrawal(row),
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: `${row.first_name} ${row.last_name}`,
    email: row.email,
    account_number: row.account_number,
    sort_code: row.sort_code,
    iban: row.iban,
    bic: row.bic,
    needs_second_approval: row.needs_second_approval,
    approved_by: row.approved_by_email,
    approved_at: row.approved_at?.toISOString() ?? null,
    paid_by: row.paid_by_email,
    payment_reference: row.payment_reference,
    rejected_by: row.rejected_by_email,
    exported_at: row.exported_at?.toISOString() ?? null,
    customer_on_hold: row.block_status === ON_HOLD,
  };
}

function toAdminDeposit(row: DepositRow): AdminFiatDeposit {
  return {
    id: row.id,
    currency: asCurrency(row.currency),
    bank_transaction_id: row.bank_transaction_id,
    amount: money(row.amount, row.currency),
    payer_name: row.payer_name,
    reference: row.reference,
    value_date: row.value_date,
    source: row.source,
    status: row.status,
    suspense_reason: row.suspense_reason,
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    resolution_note: row.resolution_note,
    created_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

function toSettings(row: FiatSettingsRow): FiatBankSettings {
  return {
    currency: asCurrency(row.currency),
    account_name: row.account_name,
    account_number: row.account_number,
    sort_code: row.sort_code,
    bank_name: row.bank_name,
    iban: row.iban,
    bic: row.bic,
    second_approval_from: money(row.second_approval_from, row.currency),
    updated_at: row.updated_at.toISOString(),
  };
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** A currency's withdrawal rules in minor units, as withdraw() charges them and the fees page shows them. */
function toCurrencyRules(row: {
  symbol: string;
  withdraw_min: string;
  withdraw_fee: string;
  withdraw_fee_free_from: string | null;
}) {
  return {
    symbol: row.symbol,
    minimum: BigInt(row.withdraw_min),
    fee: BigInt(row.withdraw_fee),
    feeFreeFrom: row.withdraw_fee_free_from === null ? null : BigInt(row.withdraw_fee_free_from),
  };
}

/** The customer's available balance in a currency, never a JS number. */
const bankRef = (currency: string) => ({ asset: asCurrency(currency), kind: 'bank' as const });
const suspenseRef = (currency: string) => ({ asset: asCurrency(currency), kind: 'suspense' as const });
const feeRef = (currency: string) => ({
  asset: asCurrency(currency),
  kind: 'withdrawal_fee_revenue' as const,
});
const userRef = (userId: number, currency: string) => ({
  asset: asCurrency(currency),
  kind: 'available' as const,
  ownerUserId: String(userId),
});

export type IncomingTransfer = {
  currency: FiatCurrency;
  amount: bigint;
  payerName: string;
  reference: string;
  bankTransactionId: string;
  valueDate: string | null;
  source: 'manual' | 'import';
};

export type StatementInput = {
  currency: FiatCurrency;
  csv: string;
  mapping?: { date: string; amount: string; reference: string; payer: string; transaction_id: string };
};

/**
 * Fiat money in and out. Deposits arrive from the bank (recorded or imported
 * by finance) and are credited through the ledger once per bank transaction
 * id; withdrawals hold the money until finance pays or rejects them. Every
 * staff action is audited in the transaction that makes it; customers are
 * mailed and their screens told after the commit.
 */
export function createFiatService(deps: FiatServiceDeps) {
  const { db, repository, ledger, notifier, userEvents, clock } = deps;

  async function requireCustomer(userId: number): Promise<FiatCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  async function currencyRules(currency: string) {
    const rules = await repository.findCurrencyRules(currency);
    if (!rules) throw new AppError('NOT_FOUND');
    return toCurrencyRules(rules);
  }

  function feeFor(amount: bigint, rules: { fee: bigint; feeFreeFrom: bigint | null }): bigint {
    return rules.feeFreeFrom !== null && amount >= rules.feeFreeFrom ? 0n : rules.fee;
  }

  /** The second factor a withdrawal needs, with the spec's texts. */
  async function checkSecondFactor(
    customer: FiatCustomer,
    passcode: string | null | undefined,
    purpose: string,
  ) {
    const result = await deps.secondFactor.check(customer, passcode, purpose);
    if (result === 'missing') throw refused('passcode', FIAT_TEXTS.passcodeRequired);
    if (result === 'expired') throw refused('passcode', FIAT_TEXTS.codeExpired);
    if (result === 'wrong') throw refused('passcode', FIAT_TEXTS.wrongPasscode);
  }

  /** Why this customer may not withdraw to their account in `currency` now; the account when they may. */
  function checkBankAccount(
    account: BankAccountRow | undefined,
    body: {
      bank_sort_code?: string | null;
      bank_account_number?: string | null;
      currency_code?: FiatCurrency | null;
    },
  ): BankAccountRow {
    if (!account) throw new AppError('BANK_ACCOUNT_NOT_SET');
    if (!account.verified_at) throw new AppError('BANK_ACCOUNT_NOT_SET', FIAT_TEXTS.bankAccountUnverified);
    const waitUntil = withdrawalsAllowedFrom(account, clock.now());
    if (waitUntil)
      throw new AppError(
        'BANK_ACCOUNT_NOT_SET',
        waitUntilText(FIAT_TEXTS.bankDetailsChanged, waitUntil),
        undefined,
        {
          withdrawals_allowed_from: waitUntil.toISOString(),
        },
      );
    // The client may send the details it shows; the money goes only to the registered account.
    if (body.bank_account_number || body.bank_sort_code) {
      const sent = normaliseBankFields({
        currency_code: body.currency_code,
        bank_account_number: body.bank_account_number ?? '',
        bank_sort_code: body.bank_sort_code ?? '',
      });
      const matches =
        account.currency === 'GBP'
          ? sent.accountNumber === account.account_number && sent.sortCode === account.sort_code
          : (!sent.bic || sent.bic === account.bic) && (!sent.iban || sent.iban === account.iban);
      if (!matches) throw new AppError('BANK_ACCOUNT_NOT_SET', FIAT_TEXTS.bankDetailsMismatch);
    }
    return account;
  }

  /**
   * Receives one incoming transfer: claims its bank transaction id, matches
   * the reference to a customer and the payer to their name, and books it to
   * the customer (credited) or to suspense, in one transaction.
   */
  async function receiveTransfer(
    actor: AuditActor,
    transfer: IncomingTransfer,
  ): Promise<{ outcome: 'credited' | 'suspense' | 'duplicate'; depositId: string; credited?: FiatCustomer }> {
    const result = await db.transaction().execute(async (trx) => {
      const candidates = await repository.findCustomersByReferences(referencesIn(transfer.reference), trx);
      const customer = candidates.length === 1 ? candidates[0] : undefined;
      let reason: FiatSuspenseReason | null = null;
      if (!customer) reason = 'unmatched';
      else if (!isLive(customer)) reason = 'customer_not_live';
      else if (!isPayerTheCustomer(transfer.payerName, customer)) reason = 'name_mismatch';
      const depositId = await repository.insertDeposit(trx, {
        currency: transfer.currency,
        bank_transaction_id: transfer.bankTransactionId,
        amount: transfer.amount.toString(),
        payer_name: transfer.payerName,
        reference: transfer.reference,
        value_date: transfer.valueDate,
        source: transfer.source,
        status: reason ? 'suspense' : 'credited',
        suspense_reason: reason,
        user_id: customer?.id ?? null,
        recorded_by: actor.staffId,
      });
      if (!depositId) {
        const earlier = await repository.findDepositByTransaction(
          transfer.currency,
          transfer.bankTransactionId,
          trx,
        );
        return { outcome: 'duplicate' as const, depositId: earlier?.id ?? '' };
      }
      const to =
        reason || !customer ? suspenseRef(transfer.currency) : userRef(customer.id, transfer.currency);
      await ledger.postJournal(trx, {
        idempotencyKey: `fiat_deposit:${transfer.currency}:${transfer.bankTransactionId}`,
        kind: 'fiat_deposit',
        reference: `fiat_deposit:${depositId}`,
        metadata: { source: transfer.source, to: reason ? 'suspense' : 'customer' },
        postings: [
          { account: bankRef(transfer.currency), amount: -transfer.amount },
          { account: to, amount: transfer.amount },
        ],
      });
      if (!reason && customer) await verifyByDeposit(trx, customer.id, transfer.currency);
      await recordAudit(trx, {
        ...actor,
        action: 'fiat.deposit_recorded',
        targetType: 'fiat_deposit',
        targetId: depositId,
        after: {
          currency: transfer.currency,
          amount: transfer.amount,
          bank_transaction_id: transfer.bankTransactionId,
          status: reason ? 'suspense' : 'credited',
          suspense_reason: reason,
          user_id: customer?.id ?? null,
          source: transfer.source,
        },
      });
      return reason
        ? { outcome: 'suspense' as const, depositId }
        : { outcome: 'credited' as const, depositId, credited: customer };
    });
    if (result.credited) await afterCredit(result.credited, transfer.amount, transfer.currency);
    return result;
  }

  /**
   * DECISIONS.md: a matched deposit in the customer's name verifies their account in that currency;
   * only the details as first given, though. Changed details are left to finance: the customer's own
   * next top-up would otherwise vouch for whatever account a hijacked session put there.
   */
  async function verifyByDeposit(trx: Kysely<DB>, userId: number, currency: string): Promise<void> {
    const account = await repository.findBankAccountByCurrency(userId, currency, trx);
    const changedSinceAdded = account !== undefined && account.details_changed_at > account.created_at;
    if (account && !account.verified_at && !changedSinceAdded)
      await repository.updateBankAccount(trx, account.id, {
        verified_at: new Date(),
        verified_by: 'deposit',
      });
  }

  async function afterCredit(customer: FiatCustomer, amount: bigint, currency: string): Promise<void> {
    userEvents.moneyMoved([customer.id]);
    await notifier.notify(customer, 'fiat_deposit_credited', {
      firstName: customer.first_name,
      amount: money(amount, currency),
      currency,
    });
  }

  async function requireDeposit(id: string): Promise<DepositRow> {
    const row = await repository.findDeposit(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function requireAdminWithdrawal(id: string): Promise<AdminWithdrawalRow> {
    const row = await repository.findAdminWithdrawal(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Locks an open withdrawal for a staff decision; 404 when there is none, 409 when it is decided. */
  async function lockOpenWithdrawal(trx: Kysely<DB>, id: string): Promise<WithdrawalRow> {
    const row = await repository.lockWithdrawal(trx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending' && row.status !== 'approved')
      throw new AppError('CONFLICT', FIAT_TEXTS.notOpen);
    return row;
  }

  function auditWithdrawal(row: WithdrawalRow) {
    return {
      status: row.status,
      amount: row.amount,
      fee: row.fee,
      currency: row.currency,
      user_id: row.user_id,
    };
  }

  return {
    // ---- customer: bank accounts ----

    async getBankAccounts(userId: number, currency: FiatCurrency = 'GBP') {
      const rows = await repository.listBankAccounts(userId);
      const now = clock.now();
      const accounts = rows.map((row) => toBankAccount(row, now));
      return { data: accounts.find((account) => account.currency_code === currency) ?? null, accounts };
    },

    async createBankAccount(
      userId: number,
      body: {
        name_of_account: string;
        currency_code?: FiatCurrency | null;
        bank_account_number?: string;
        bank_sort_code?: string;
        international_iban?: string | null;
      },
    ): Promise<Answer<BankAccount>> {
      const customer = await requireCustomer(userId);
      const fields = normaliseBankFields(body);
      const row = await repository.insertBankAccount(db, {
        user_id: userId,
        currency: fields.currency,
        name_of_account: body.name_of_account,
        account_number: fields.accountNumber,
        sort_code: fields.sortCode,
        iban: fields.iban,
        bic: fields.bic,
      });
      if (!row) throw new AppError('CONFLICT', FIAT_TEXTS.bankAccountExists);
      await notifier.notify(customer, 'bank_account_saved', {
        firstName: customer.first_name,
        currency: fields.currency,
        ending: endingOf(row),
        isNew: true,
      });
      return { data: toBankAccount(row, clock.now()), message: FIAT_TEXTS.bankAccountAdded };
    },

    async updateBankAccount(
      userId: number,
      body: {
        id: number;
        name_of_account: string;
        currency_code?: FiatCurrency | null;
        bank_account_number?: string;
        bank_sort_code?: string;
        international_iban?: string | null;
      },
    ): Promise<Answer<BankAccount>> {
      const customer = await requireCustomer(userId);
      const fields = normaliseBankFields(body);
      const { row, changed } = await db.transaction().execute(async (trx) => {
        const before = await repository.lockBankAccount(trx, body.id);
        if (!before || before.user_id !== userId) throw new AppError('NOT_FOUND');
        if (before.currency !== fields.currency)
          throw new AppError('VALIDATION_FAILED', undefined, {
            currency_code: [FIAT_TEXTS.currencyMismatch],
          });
        const next = {
          name_of_account: body.name_of_account,
          account_number: fields.accountNumber,
          sort_code: fields.sortCode,
          iban: fields.iban,
          bic: fields.bic,
        };
        const isSame = (Object.keys(next) as (keyof typeof next)[]).every((key) => next[key] === before[key]);
        if (isSame) return { row: before, changed: false };
        // New details are a new account as far as safety goes: verified again, and a 24-hour wait.
        const after = await repository.updateBankAccount(trx, before.id, {
          ...next,
          verified_at: null,
          verified_by: null,
          details_changed_at: clock.now(),
        });
        return { row: after, changed: true };
      });
      if (changed)
        await notifier.notify(customer, 'bank_account_saved', {
          firstName: customer.first_name,
          currency: fields.currency,
          ending: endingOf(row),
          isNew: false,
        });
      return { data: toBankAccount(row, clock.now()), message: FIAT_TEXTS.bankAccountUpdated };
    },

    /**
     * Only to a live customer not on hold (spec 001: others cannot deposit): a transfer from anyone else
     * would only wait in suspense for staff, as crypto addresses are not shown to them either.
     */
    async getDepositInfo(userId: number): Promise<DepositBankInfo> {
      const customer = await requireCustomer(userId);
      if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
      const settings = await repository.listSettings();
      const gbp = settings.find((row) => row.currency === 'GBP');
      return {
        'Account Name': gbp?.account_name ?? '',
        'Account Number': gbp?.account_number ?? '',
        'Sort Code': gbp?.sort_code ?? '',
        Bank: gbp?.bank_name ?? '',
        reference: customer.user_identification,
        international: settings
          .filter((row) => row.currency !== 'GBP')
          .map((row) => ({
            currency: asCurrency(row.currency),
            company_name: row.account_name,
            bic: row.bic,
            iban: row.iban,
          })),
      };
    },

    // ---- customer: withdrawals ----

    /**
     * Every active currency's withdrawal rules, for the public fees page
     * (modules/fees). Deposits cost nothing: receiveTransfer credits the whole
     * amount received.
     */
    async listFeeRules(): Promise<
      { currency: FiatCurrency; minimum: bigint; fee: bigint; feeFreeFrom: bigint | null }[]
    > {
      const rows = await repository.listCurrencyRules();
      return rows.map((row) => {
        const { minimum, fee, feeFreeFrom } = toCurrencyRules(row);
        return { currency: asCurrency(row.code), minimum, fee, feeFreeFrom };
      });
    },

    async getWithdrawInfo(userId: number, currency: FiatCurrency = 'GBP') {
      const customer = await requireCustomer(userId);
      const rules = await currencyRules(currency);
      const balance = await ledger.getBalance(db, userRef(userId, currency));
      return {
        currency,
        currency_symbol: rules.symbol,
        minimum: money(rules.minimum, currency),
        fee: money(rules.fee, currency),
        fee_free_from: rules.feeFreeFrom === null ? null : money(rules.feeFreeFrom, currency),
        available: money(balance.available, currency),
        passcode_required: deps.secondFactor.isRequired(customer),
        blocked_until: withdrawalsBlockedUntil(customer, clock.now())?.toISOString() ?? null,
        email_codes: customer.platform_2fa_mobile,
      };
    },

    /** Mails a one-time code to a customer who uses e-mailed codes; older open codes stop working. */
    async requestCode(userId: number, purpose: string): Promise<{ message: string }> {
      const customer = await requireCustomer(userId);
      if (!customer.platform_2fa_mobile) throw new AppError('CONFLICT', FIAT_TEXTS.emailCodesOff);
      const code = await deps.emailedCodes.issue(db, userId, purpose);
      await notifier.notify(customer, 'withdrawal_code', {
        firstName: customer.first_name,
        code,
        purpose: CODE_PURPOSE_PHRASES[purpose as Fiat2faPurpose],
        isWithdrawal: purpose === FIAT_WITHDRAW_PURPOSE || purpose === 'Crypto Withdraw(2fa)',
        minutes: EMAILED_CODE_MINUTES,
      });
      return { message: FIAT_TEXTS.codeSent };
    },

    async withdraw(
      userId: number,
      idempotencyKey: string,
      body: {
        amount: string;
        currency_code?: FiatCurrency | null;
        passcode?: string | null;
        bank_sort_code?: string | null;
        bank_account_number?: string | null;
        name_of_account?: string | null;
      },
    ): Promise<Answer<FiatWithdrawal>> {
      const currency: FiatCurrency = body.currency_code ?? 'GBP';
      let amount: bigint;
      try {
        amount = parseAmount(body.amount, currency);
      } catch (error) {
        if (error instanceof AmountFormatError)
          throw new AppError('VALIDATION_FAILED', undefined, { amount: [FIAT_TEXTS.amountDecimals] });
        throw error;
      }
      const requestHash = hashRequest({ amount: amount.toString(), currency });
      const replay = async (executor: Kysely<DB>) => {
        const earlier = await repository.findWithdrawalByKey(executor, userId, idempotencyKey);
        if (!earlier) return undefined;
        if (earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return { data: toWithdrawal(earlier), message: FIAT_TEXTS.transactionSuccessful };
      };
      const earlier = await replay(db);
      if (earlier) return earlier;

      // The checks in the spec's order, with its texts; they run again under the lock below.
      const customer = await requireCustomer(userId);
      checkMayPayOut(customer, clock.now());
      await deps.verification.assertComplete(userId);
      checkBankAccount(await repository.findBankAccountByCurrency(userId, currency), body);
      const rules = await currencyRules(currency);
      const fee = feeFor(amount, rules);
      if (amount < rules.minimum || amount <= fee)
        throw refused('amount', `Minimum ${currency} withdrawal amount is ${money(rules.minimum, currency)}`);
      try {
        const balance = await ledger.getBalance(db, userRef(userId, currency));
        if (amount > balance.available) throw refused('amount', FIAT_TEXTS.balanceTooLow);
        await checkSecondFactor(customer, body.passcode, FIAT_WITHDRAW_PURPOSE);
      } catch (error) {
        // A copy of this request (same key) that committed since the first look has held the
        // balance and spent the code: the key answers with that withdrawal, not a refusal
        // (LEDGER.md; 50 concurrent copies in security/races.test.ts got 400s without this).
        const committed = await replay(db);
        if (committed) return committed;
        throw error;
      }

      const result = await db.transaction().execute(async (trx) => {
        // One customer's withdrawals and cancels run one at a time: the key and the balance are decided under this lock.
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const replayed = await replay(trx);
        if (replayed) return { answer: replayed, created: undefined };
        checkMayPayOut(locked, clock.now());
        const account = checkBankAccount(
          await repository.findBankAccountByCurrency(userId, currency, trx),
          body,
        );
        const settings = await repository.findSettings(currency, trx);
        let holdId: string;
        try {
          ({ holdId } = await ledger.placeHold(trx, {
            idempotencyKey: `fiat_withdrawal:${userId}:${idempotencyKey}`,
            account: userRef(userId, currency),
            amount,
            reason: 'fiat_withdrawal',
            reference: `fiat_withdrawal:${userId}:${idempotencyKey}`,
          }));
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
            throw refused('amount', FIAT_TEXTS.balanceTooLow);
          throw error;
        }
        const row = await repository.insertWithdrawal(trx, {
          user_id: userId,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          currency,
          amount: amount.toString(),
          fee: fee.toString(),
          bank_account_id: account.id,
          name_of_account: account.name_of_account,
          account_number: account.account_number,
          sort_code: account.sort_code,
          iban: account.iban,
          bic: account.bic,
          hold_id: holdId,
          needs_second_approval: settings ? amount >= BigInt(settings.second_approval_from) : true,
        });
        return {
          answer: { data: toWithdrawal(row), message: FIAT_TEXTS.transactionSuccessful },
          created: row,
        };
      });
      if (result.created) {
        userEvents.moneyMoved([userId]);
        await notifier.notify(customer, 'fiat_withdrawal_requested', {
          firstName: customer.first_name,
          amount: result.answer.data.amount,
          receive: result.answer.data.amount_receive,
          currency,
        });
      }
      return result.answer;
    },

    async cancelWithdrawal(userId: number, id: string): Promise<Answer<FiatWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.lockWithdrawal(trx, id);
        if (!before || before.user_id !== userId) throw new AppError('NOT_FOUND');
        if (before.status !== 'pending') throw new AppError('CONFLICT', FIAT_TEXTS.notPending);
        if (before.exported_at !== null) throw new AppError('CONFLICT', FIAT_TEXTS.beingPaid);
        await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
        await repository.updateWithdrawal(trx, id, { status: 'cancelled', cancelled_at: new Date() });
        return (await repository.findWithdrawal(id, trx)) as WithdrawalRow;
      });
      userEvents.moneyMoved([userId]);
      return { data: toWithdrawal(row), message: FIAT_TEXTS.withdrawalCancelled };
    },

    async listActivity(userId: number, page: number, currency?: FiatCurrency): Promise<Page<FiatActivity>> {
      return readPage({
        page,
        path: listFiatActivity.path,
        perPage: FIAT_ACTIVITY_PAGE_SIZE,
        filters: { currency_code: currency },
        count: () => repository.countActivity(userId, currency),
        list: async (limit, offset) => {
          const rows = await repository.listActivity(userId, currency, limit, offset);
          const ids = (type: 'deposit' | 'withdrawal') =>
            rows.filter((row) => row.type === type).map((row) => row.id);
          const [depositRows, withdrawalRows] = await Promise.all([
            repository.listDepositsByIds(ids('deposit')),
            repository.listWithdrawalsByIds(ids('withdrawal')),
          ]);
          return rows.map((item): { deposit: DepositRow } | { withdrawal: WithdrawalRow } =>
            item.type === 'deposit'
              ? { deposit: depositRows.find((row) => row.id === item.id) as DepositRow }
              : { withdrawal: withdrawalRows.find((row) => row.id === item.id) as WithdrawalRow },
          );
        },
        toItem: (item): FiatActivity => {
          if ('deposit' in item) {
            const { deposit } = item;
            return {
              id: `deposit:${deposit.id}`,
              type: 'deposit',
              currency: asCurrency(deposit.currency),
              amount: money(deposit.amount, deposit.currency),
              fee: money(0n, deposit.currency),
              status: 'credited',
              status_label: 'Completed',
              withdrawal: null,
              created_at: deposit.created_at.toISOString(),
            };
          }
          const withdrawal = toWithdrawal(item.withdrawal);
          return {
            id: `withdrawal:${withdrawal.id}`,
            type: 'withdrawal',
            currency: withdrawal.currency,
            amount: withdrawal.amount,
            fee: withdrawal.fee,
            status: withdrawal.status,
            status_label: FIAT_WITHDRAWAL_STATUS_LABELS[withdrawal.status],
            withdrawal,
            created_at: withdrawal.created_at,
          };
        },
      });
    },

    // ---- back office: settings ----

    async listSettings(): Promise<FiatBankSettings[]> {
      return (await repository.listSettings()).map(toSettings);
    },

    async updateSettings(
      actor: AuditActor,
      currency: FiatCurrency,
      body: {
        account_name: string;
        account_number: string;
        sort_code: string;
        bank_name: string;
        iban: string;
        bic: string;
        second_approval_from: string;
      },
    ): Promise<Answer<FiatBankSettings>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.findSettings(currency, trx);
        if (!before) throw new AppError('NOT_FOUND');
        const after = await repository.updateSettings(trx, currency, {
          ...body,
          second_approval_from: parseAmount(body.second_approval_from, currency).toString(),
          updated_by: actor.staffId,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.settings_updated',
          targetType: 'fiat_bank_settings',
          targetId: currency,
          before: { ...toSettings(before), updated_at: undefined },
          after: { ...toSettings(after), updated_at: undefined },
        });
        return after;
      });
      return { data: toSettings(row), message: FIAT_TEXTS.settingsSaved };
    },

    // ---- back office: incoming transfers ----

    async recordDeposit(
      actor: AuditActor,
      body: {
        currency: FiatCurrency;
        amount: string;
        payer_name: string;
        reference: string;
        bank_transaction_id: string;
        value_date?: string | null;
      },
    ) {
      const { outcome, depositId } = await receiveTransfer(actor, {
        currency: body.currency,
        amount: parseAmount(body.amount, body.currency),
        payerName: body.payer_name,
        reference: body.reference,
        bankTransactionId: body.bank_transaction_id,
        valueDate: body.value_date ?? null,
        source: 'manual',
      });
      const message =
        outcome === 'credited'
          ? FIAT_TEXTS.depositCredited
          : outcome === 'suspense'
            ? FIAT_TEXTS.depositSuspense
            : FIAT_TEXTS.depositDuplicate;
      return { data: { outcome, deposit: toAdminDeposit(await requireDeposit(depositId)) }, message };
    },

    async importStatement(actor: AuditActor, input: StatementInput) {
      const mapping = input.mapping ?? {
        date: 'date',
        amount: 'amount',
        reference: 'reference',
        payer: 'payer',
        transaction_id: 'transaction_id',
      };
      const rows = parseCsv(input.csv);
      const header = (rows[0] ?? []).map((name) => name.trim().toLowerCase());
      const columnOf = (name: string) => header.indexOf(name.trim().toLowerCase());
      const columns = {
        date: columnOf(mapping.date),
        amount: columnOf(mapping.amount),
        reference: columnOf(mapping.reference),
        payer: columnOf(mapping.payer),
        transaction_id: columnOf(mapping.transaction_id),
      };
      const missing = (Object.keys(columns) as (keyof typeof columns)[]).filter(
        (key) => columns[key] < 0 && key !== 'date',
      );
      if (missing.length > 0)
        throw new AppError(
          'VALIDATION_FAILED',
          undefined,
          Object.fromEntries(
            missing.map((key) => [`mapping.${key}`, [`${FIAT_TEXTS.csvMissingColumn} "${mapping[key]}".`]]),
          ),
        );
      const lines = rows.slice(1).map((cells, index) => ({ cells, line: index + 2 }));
      const filled = lines.filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
      if (filled.length === 0)
        throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvEmpty] });
      if (filled.length > MAX_STATEMENT_LINES)
        throw new AppError('VALIDATION_FAILED', undefined, { csv: [FIAT_TEXTS.csvTooManyLines] });

      type LineResult = {
        line: number;
        bank_transaction_id: string | null;
        outcome: 'credited' | 'suspense' | 'duplicate' | 'skipped' | 'invalid';
        message: string | null;
        deposit_id: string | null;
      };
      const results: LineResult[] = [];
      for (const { cells, line } of filled) {
        const cell = (index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
        const transactionId = cell(columns.transaction_id);
        const amountText = cell(columns.amount).replace(/[£€$,\s]/g, '');
        const base = { line, bank_transaction_id: transactionId || null, deposit_id: null };
        if (!transactionId) {
          results.push({ ...base, outcome: 'invalid', message: 'The line has no transaction id.' });
          continue;
        }
        if (/^-/.test(amountText) || /^0*(\.0*)?$/.test(amountText)) {
          results.push({ ...base, outcome: 'skipped', message: 'Not an incoming transfer.' });
          continue;
        }
        let amount: bigint;
        try {
          amount = parseAmount(amountText.replace(/^\+/, ''), input.currency);
        } catch {
          results.push({
            ...base,
            outcome: 'invalid',
            message: `The amount "${cell(columns.amount)}" is not valid.`,
          });
          continue;
        }
        const { outcome, depositId } = await receiveTransfer(actor, {
          currency: input.currency,
          amount,
          payerName: cell(columns.payer).slice(0, 200),
          reference: cell(columns.reference).slice(0, 200),
          bankTransactionId: transactionId.slice(0, 100),
          valueDate: cell(columns.date).slice(0, 40) || null,
          source: 'import',
        });
        results.push({
          ...base,
          outcome,
          deposit_id: depositId || null,
          message: outcome === 'duplicate' ? FIAT_TEXTS.depositDuplicate : null,
        });
      }
      const count = (outcome: LineResult['outcome']) =>
        results.filter((result) => result.outcome === outcome).length;
      const summary = {
        credited: count('credited'),
        suspense: count('suspense'),
        duplicates: count('duplicate'),
        skipped: count('skipped'),
        invalid: count('invalid'),
      };
      await recordAudit(db, {
        ...actor,
        action: 'fiat.statement_imported',
        targetType: 'fiat_statement',
        targetId: null,
        after: { currency: input.currency, lines: filled.length, ...summary },
      });
      return {
        data: { ...summary, lines: results },
        message: `${summary.credited} credited, ${summary.suspense} to suspense, ${summary.duplicates} seen before.`,
      };
    },

    async listDeposits(
      page: number,
      status?: 'credited' | 'suspense' | 'returned',
    ): Promise<Page<AdminFiatDeposit>> {
      return readPage({
        page,
        path: listFiatDeposits.path,
        filters: { status },
        count: () => repository.countDeposits(status),
        list: (limit, offset) => repository.listDepositsPage(status, limit, offset),
        toItem: toAdminDeposit,
      });
    },

    async assignDeposit(
      actor: AuditActor,
      id: string,
      userId: number,
      reason: string,
    ): Promise<Answer<AdminFiatDeposit>> {
      const { customer, amount, currency } = await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', FIAT_TEXTS.depositNotInSuspense);
        const target = await repository.findCustomer(userId, trx);
        if (!target)
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [FIAT_TEXTS.customerNotFound] });
        if (!isLive(target))
          throw new AppError('VALIDATION_FAILED', undefined, { user_id: [FIAT_TEXTS.customerNotLive] });
        const value = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `fiat_deposit_assign:${id}`,
          kind: 'fiat_deposit',
          reference: `fiat_deposit:${id}`,
          metadata: { from: 'suspense', staff_id: actor.staffId },
          postings: [
            { account: suspenseRef(deposit.currency), amount: -value },
            { account: userRef(userId, deposit.currency), amount: value },
          ],
        });
        await repository.resolveDeposit(trx, id, {
          status: 'credited',
          user_id: userId,
          resolved_by: actor.staffId,
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.deposit_assigned',
          targetType: 'fiat_deposit',
          targetId: id,
          before: { status: 'suspense', user_id: deposit.user_id },
          after: { status: 'credited', user_id: userId, reason },
        });
        return { customer: target, amount: value, currency: deposit.currency };
      });
      await afterCredit(customer, amount, currency);
      return { data: toAdminDeposit(await requireDeposit(id)), message: FIAT_TEXTS.depositAssigned };
    },

    async returnDeposit(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminFiatDeposit>> {
      await db.transaction().execute(async (trx) => {
        const deposit = await repository.lockDeposit(trx, id);
        if (!deposit) throw new AppError('NOT_FOUND');
        if (deposit.status !== 'suspense') throw new AppError('CONFLICT', FIAT_TEXTS.depositNotInSuspense);
        const value = BigInt(deposit.amount);
        await ledger.postJournal(trx, {
          idempotencyKey: `fiat_deposit_return:${id}`,
          kind: 'fiat_deposit',
          reference: `fiat_deposit:${id}`,
          metadata: { returned: true, staff_id: actor.staffId },
          postings: [
            { account: suspenseRef(deposit.currency), amount: -value },
            { account: bankRef(deposit.currency), amount: value },
          ],
        });
        await repository.resolveDeposit(trx, id, {
          status: 'returned',
          resolved_by: actor.staffId,
          resolution_note: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.deposit_returned',
          targetType: 'fiat_deposit',
          targetId: id,
          before: { status: 'suspense' },
          after: { status: 'returned', reason },
        });
      });
      return { data: toAdminDeposit(await requireDeposit(id)), message: FIAT_TEXTS.depositReturned };
    },

    // ---- back office: payout queue ----

    async listWithdrawals(
      page: number,
      status: 'open' | FiatWithdrawalStatus,
    ): Promise<Page<AdminFiatWithdrawal>> {
      return readPage({
        page,
        path: listPayoutQueue.path,
        filters: { status },
        count: () => repository.countWithdrawals(status),
        list: (limit, offset) => repository.listAdminWithdrawals(status, limit, offset),
        toItem: toAdminWithdrawal,
      });
    },

    async approveWithdrawal(actor: AuditActor, id: string): Promise<Answer<AdminFiatWithdrawal>> {
      await db.transaction().execute(async (trx) => {
        const before = await lockOpenWithdrawal(trx, id);
        if (!before.needs_second_approval) throw new AppError('CONFLICT', FIAT_TEXTS.approvalNotNeeded);
        if (before.status === 'approved') throw new AppError('CONFLICT', FIAT_TEXTS.alreadyApproved);
        const customer = await repository.lockCustomer(trx, before.user_id);
        if (customer?.block_status === ON_HOLD) throw new AppError('CONFLICT', FIAT_TEXTS.customerOnHold);
        await repository.updateWithdrawal(trx, id, {
          status: 'approved',
          approved_by: actor.staffId,
          approved_at: new Date(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_approved',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(before),
          after: { status: 'approved' },
        });
      });
      return {
        data: toAdminWithdrawal(await requireAdminWithdrawal(id)),
        message: FIAT_TEXTS.withdrawalApproved,
      };
    },

    async markWithdrawalPaid(
      actor: AuditActor,
      id: string,
      paymentReference: string,
    ): Promise<Answer<AdminFiatWithdrawal>> {
      const before = await db.transaction().execute(async (trx) => {
        const row = await lockOpenWithdrawal(trx, id);
        if (row.needs_second_approval) {
          if (row.status !== 'approved') throw new AppError('CONFLICT', FIAT_TEXTS.needsApproval);
          if (row.approved_by === actor.staffId) throw new AppError('CONFLICT', FIAT_TEXTS.approverCannotPay);
        }
        // Locked until the commit: a hold compliance puts on now waits for this payout, or stops it. A
        // withdrawal in a payout file is being paid by the bank already: recording that stays possible.
        const customer = await repository.lockCustomer(trx, row.user_id);
        if (customer?.block_status === ON_HOLD && row.exported_at === null)
          throw new AppError('CONFLICT', FIAT_TEXTS.customerOnHold);
        const amount = BigInt(row.amount);
        const fee = BigInt(row.fee);
        const postings: Posting[] = [
          { account: userRef(row.user_id, row.currency), amount: -amount },
          { account: bankRef(row.currency), amount: amount - fee },
        ];
        if (fee > 0n) postings.push({ account: feeRef(row.currency), amount: fee });
        const { journalId } = await ledger.postHold(trx, {
          holdId: row.hold_id,
          amount,
          idempotencyKey: `fiat_withdrawal_paid:${id}`,
          kind: 'fiat_withdrawal',
          reference: `fiat_withdrawal:${id}`,
          metadata: { payment_reference: paymentReference, fee: money(fee, row.currency) },
          postings,
        });
        await repository.updateWithdrawal(trx, id, {
          status: 'paid',
          journal_id: journalId,
          paid_by: actor.staffId,
          paid_at: new Date(),
          payment_reference: paymentReference,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_paid',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(row),
          after: { status: 'paid', payment_reference: paymentReference, journal_id: journalId },
        });
        return row;
      });
      const after = await requireAdminWithdrawal(id);
      userEvents.moneyMoved([before.user_id]);
      const customer = await repository.findCustomer(before.user_id);
      if (customer)
        await notifier.notify(customer, 'fiat_withdrawal_paid', {
          firstName: customer.first_name,
          receive: money(BigInt(before.amount) - BigInt(before.fee), before.currency),
          currency: before.currency,
          ending: endingOf(before),
        });
      return { data: toAdminWithdrawal(after), message: FIAT_TEXTS.withdrawalPaid };
    },

    async rejectWithdrawal(
      actor: AuditActor,
      id: string,
      reason: string,
      { bankReturned }: { bankReturned: boolean },
    ): Promise<Answer<AdminFiatWithdrawal>> {
      const before = await db.transaction().execute(async (trx) => {
        const row = await lockOpenWithdrawal(trx, id);
        // The bank may be paying it: giving the money back as well would pay the customer twice.
        if (row.exported_at !== null && !bankReturned)
          throw new AppError('CONFLICT', FIAT_TEXTS.inPayoutFile);
        await ledger.releaseHold(trx, { holdId: row.hold_id, outcome: 'voided' });
        await repository.updateWithdrawal(trx, id, {
          status: 'rejected',
          rejected_by: actor.staffId,
          rejected_at: new Date(),
          reject_reason: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.withdrawal_rejected',
          targetType: 'fiat_withdrawal',
          targetId: id,
          before: auditWithdrawal(row),
          after: { status: 'rejected', reason, ...(row.exported_at !== null ? { bank_returned: true } : {}) },
        });
        return row;
      });
      userEvents.moneyMoved([before.user_id]);
      const customer = await repository.findCustomer(before.user_id);
      if (customer)
        await notifier.notify(customer, 'fiat_withdrawal_rejected', {
          firstName: customer.first_name,
          amount: money(before.amount, before.currency),
          currency: before.currency,
          reason,
        });
      return {
        data: toAdminWithdrawal(await requireAdminWithdrawal(id)),
        message: FIAT_TEXTS.withdrawalRejected,
      };
    },

    /**
     * The bank's payout file: one line per withdrawal that may be paid now and that no earlier file
     * listed, net amounts. Listing a withdrawal marks it exported (the customer can no longer cancel
     * it); finance then marks each paid or rejects it.
     */
    async exportPayoutFile(actor: AuditActor, currency: FiatCurrency): Promise<Answer<PayoutFile>> {
      const rows = await db.transaction().execute(async (trx) => {
        const exported = await repository.exportPayable(trx, currency, actor.staffId);
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.payout_file_exported',
          targetType: 'fiat_payout_file',
          targetId: currency,
          after: { withdrawals: exported.map((row) => row.id) },
        });
        return exported;
      });
      const header =
        currency === 'GBP'
          ? [
              'withdrawal_id',
              'name_of_account',
              'sort_code',
              'account_number',
              'amount',
              'currency',
              'reference',
            ]
          : ['withdrawal_id', 'name_of_account', 'iban', 'bic', 'amount', 'currency', 'reference'];
      const lines = rows.map((row) => {
        const net = money(BigInt(row.amount) - BigInt(row.fee), row.currency);
        const reference = `FLORIN W${row.id}`;
        const bank =
          currency === 'GBP'
            ? [row.sort_code ?? '', row.account_number ?? '']
            : [row.iban ?? '', row.bic ?? ''];
        return csvLine([String(row.id), row.name_of_account, ...bank, net, row.currency, reference]);
      });
      return {
        data: {
          // To the second: a second file the same day must not overwrite the first in the downloads folder.
          filename: `payouts-${currency}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.csv`,
          csv: csvLine(header) + lines.join(''),
          withdrawals: rows.length,
        },
        message: rows.length === 0 ? FIAT_TEXTS.payoutFileEmpty : FIAT_TEXTS.payoutFileMade,
      };
    },

    // ---- back office: bank accounts ----

    async listCustomerBankAccounts(userId: number) {
      const rows = await repository.listBankAccounts(userId);
      const now = clock.now();
      return rows.map((row) => ({
        ...toBankAccount(row, now),
        user_id: row.user_id,
        verified_by: row.verified_by,
      }));
    },

    async verifyBankAccount(actor: AuditActor, id: number, reason: string): Promise<{ message: string }> {
      await db.transaction().execute(async (trx) => {
        const before = await repository.lockBankAccount(trx, id);
        if (!before) throw new AppError('NOT_FOUND');
        if (before.verified_at) throw new AppError('CONFLICT', FIAT_TEXTS.alreadyVerified);
        await repository.updateBankAccount(trx, id, { verified_at: new Date(), verified_by: 'staff' });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.bank_account_verified',
          targetType: 'bank_account',
          targetId: id,
          before: { verified: false, user_id: before.user_id },
          after: { verified: true, reason },
        });
      });
      return { message: FIAT_TEXTS.bankAccountVerified };
    },
  };
}

/**
 * Invariant 8 for fiat (shared/LEDGER.md): a withdrawal's status matches its
 * hold and journals, and every transfer received has its journal.
 */
export const fiatDomainCheck: DomainCheck = {
  name: 'fiat',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'withdrawal ' || w.id || ' is ' || w.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals' AS message
      FROM fiat_withdrawals w
      JOIN holds h ON h.id = w.hold_id
      LEFT JOIN journals j ON j.hold_id = w.hold_id
      GROUP BY w.id, w.status, h.status, w.journal_id
      HAVING NOT (
        (w.status = 'paid' AND h.status = 'posted' AND count(j.id) = 1 AND w.journal_id IS NOT NULL
          AND bool_and(j.id = w.journal_id AND j.kind = 'fiat_withdrawal'))
        OR (w.status IN ('rejected', 'cancelled') AND h.status = 'voided' AND count(j.id) = 0)
        OR (w.status IN ('pending', 'approved') AND h.status = 'pending' AND count(j.id) = 0)
      )
      UNION ALL
      SELECT 'deposit ' || d.id || ' (' || d.status || ') has journals ' || coalesce(string_agg(j.idempotency_key, ', '), 'none')
      FROM fiat_deposits d
      LEFT JOIN journals j ON j.reference = 'fiat_deposit:' || d.id AND j.kind = 'fiat_deposit'
      GROUP BY d.id, d.status, d.currency, d.bank_transaction_id, d.resolved_by, d.resolved_at
      HAVING NOT (
        bool_or(j.idempotency_key = 'fiat_deposit:' || d.currency || ':' || d.bank_transaction_id) IS TRUE
        AND count(j.id) = CASE WHEN d.status = 'suspense' OR (d.status = 'credited' AND d.resolved_at IS NULL) THEN 1 ELSE 2 END
        AND (d.status <> 'credited' OR d.resolved_at IS NULL OR bool_or(j.idempotency_key = 'fiat_deposit_assign:' || d.id) IS TRUE)
        AND (d.status <> 'returned' OR bool_or(j.idempotency_key = 'fiat_deposit_return:' || d.id) IS TRUE)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
