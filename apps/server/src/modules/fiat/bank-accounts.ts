import {
  AppError,
  FIAT_TEXTS,
  normaliseBankFields,
  type BankAccount,
  type FiatCurrency,
} from '@florin/contracts';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { BankAccountRow } from './repository.js';
import {
  asCurrency,
  endingOf,
  requireCustomer,
  withdrawalsAllowedFrom,
  type Answer,
  type FiatServiceDeps,
} from './shared.js';

const CURRENCY_SYMBOLS: Record<FiatCurrency, string> = { GBP: '£', EUR: '€', USD: '$' };

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

/**
 * A customer's bank accounts, one per currency: the customer adds and changes them (a change starts the
 * wait again and needs a new verification); finance lists and verifies them.
 */
export function createBankAccounts(deps: Pick<FiatServiceDeps, 'db' | 'repository' | 'notifier' | 'clock'>) {
  const { db, repository, notifier, clock } = deps;

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
      const customer = await requireCustomer(repository, userId);
      const fields = normaliseBankFields(body);
      const { row, mail } = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertBankAccount(trx, {
          user_id: userId,
          currency: fields.currency,
          name_of_account: body.name_of_account,
          account_number: fields.accountNumber,
          sort_code: fields.sortCode,
          iban: fields.iban,
          bic: fields.bic,
        });
        if (!inserted) throw new AppError('CONFLICT', FIAT_TEXTS.bankAccountExists);
        const queued = await notifier.queue(trx, customer, 'bank_account_saved', {
          firstName: customer.first_name,
          currency: fields.currency,
          ending: endingOf(inserted),
          isNew: true,
        });
        return { row: inserted, mail: queued };
      });
      await notifier.deliver(mail);
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
      const customer = await requireCustomer(repository, userId);
      const fields = normaliseBankFields(body);
      const { row, mail } = await db.transaction().execute(async (trx) => {
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
        if (isSame) return { row: before, mail: undefined };
        // New details are a new account as far as safety goes: verified again, and a 24-hour wait.
        const after = await repository.updateBankAccount(trx, before.id, {
          ...next,
          verified_at: null,
          verified_by: null,
          details_changed_at: clock.now(),
        });
        const queued = await notifier.queue(trx, customer, 'bank_account_saved', {
          firstName: customer.first_name,
          currency: fields.currency,
          ending: endingOf(after),
          isNew: false,
        });
        return { row: after, mail: queued };
      });
      await notifier.deliver(mail);
      return { data: toBankAccount(row, clock.now()), message: FIAT_TEXTS.bankAccountUpdated };
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
