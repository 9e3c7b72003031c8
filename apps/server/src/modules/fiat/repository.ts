import { sql, type Kysely, type Selectable } from 'kysely';
import type { BankAccountsTable, DB, FiatBankSettingsTable, RowOf } from '../../db/schema.js';
import { createFiatDepositRepository } from './deposit-repository.js';
import { createFiatWithdrawalRepository } from './withdrawal-repository.js';

export type BankAccountRow = RowOf<BankAccountsTable>;
export type FiatSettingsRow = Selectable<FiatBankSettingsTable>;

/** The customer facts the fiat rules read. */
export type FiatCustomer = {
  id: number;
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  status: number;
  block_status: number;
  account_type: 'Individual' | 'Corporate' | null;
  is_sow_reset: number;
  two_factor_reset_at: Date | null;
  has_totp: boolean;
  platform_2fa_mobile: boolean;
  login_notifications: boolean;
  loginout_notifications: boolean;
  company_name: string | null;
};

const BANK_COLUMNS = [
  'id',
  'user_id',
  'currency',
  'name_of_account',
  'account_number',
  'sort_code',
  'iban',
  'bic',
  'verified_at',
  'verified_by',
  'details_changed_at',
  'created_at',
  'updated_at',
] as const;

export type FiatRepository = ReturnType<typeof createFiatRepository>;

/** The customer's credited deposits and all their withdrawals, as (type, id, created_at). */
function activityOf(userId: number, currency: string | undefined) {
  const currencyFilter = currency ? sql`AND currency = ${currency}` : sql``;
  return sql`
    SELECT 'deposit' AS type, id::text AS id, created_at, seq FROM fiat_deposits
      WHERE user_id = ${userId} AND status = 'credited' ${currencyFilter}
    UNION ALL
    SELECT 'withdrawal' AS type, id::text AS id, created_at, seq FROM fiat_withdrawals
      WHERE user_id = ${userId} ${currencyFilter}`;
}

/**
 * Every query of the fiat module: customers, bank accounts, settings and the customer's activity here,
 * withdrawals (withdrawal-repository.ts) and deposits (deposit-repository.ts) beside it, as one object.
 */
export function createFiatRepository(db: Kysely<DB>) {
  function customers(executor: Kysely<DB>) {
    return executor
      .selectFrom('users')
      .leftJoin('companies', 'companies.user_id', 'users.id')
      .select([
        'users.id',
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.status',
        'users.block_status',
        'users.account_type',
        'users.is_sow_reset',
        'users.two_factor_reset_at',
        sql<boolean>`users.totp_secret_encrypted IS NOT NULL`.as('has_totp'),
        'users.platform_2fa_mobile',
        'users.login_notifications',
        'users.loginout_notifications',
        'companies.name as company_name',
      ]);
  }

  return {
    ...createFiatWithdrawalRepository(db),
    ...createFiatDepositRepository(db),

    async findCustomer(userId: number, executor: Kysely<DB> = db): Promise<FiatCustomer | undefined> {
      return customers(executor).where('users.id', '=', userId).executeTakeFirst();
    },

    /**
     * Serialises a customer's money requests (withdraw, cancel, a payout) against each other and a hold.
     * NO KEY UPDATE: a trade or commission inserted meanwhile, which refers to the customer, need not wait for it.
     */
    async lockCustomer(executor: Kysely<DB>, userId: number): Promise<FiatCustomer | undefined> {
      await executor.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
      return customers(executor).where('users.id', '=', userId).executeTakeFirst();
    },

    /** The customers whose user_identification is one of `references` (upper case). */
    async findCustomersByReferences(references: readonly string[], executor: Kysely<DB> = db) {
      if (references.length === 0) return [];
      return customers(executor)
        .where('users.user_identification', 'in', [...references])
        .execute();
    },

    // ---- bank accounts ----

    listBankAccounts(userId: number, executor: Kysely<DB> = db): Promise<BankAccountRow[]> {
      return executor
        .selectFrom('bank_accounts')
        .select(BANK_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('seq')
        .execute();
    },

    findBankAccount(id: number, executor: Kysely<DB> = db): Promise<BankAccountRow | undefined> {
      return executor
        .selectFrom('bank_accounts')
        .select(BANK_COLUMNS)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findBankAccountByCurrency(userId: number, currency: string, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('bank_accounts')
        .select(BANK_COLUMNS)
        .where('user_id', '=', userId)
        .where('currency', '=', currency)
        .executeTakeFirst();
    },

    /** Inserts unless the customer already has one in that currency (then undefined). */
    insertBankAccount(
      executor: Kysely<DB>,
      values: {
        user_id: number;
        currency: string;
        name_of_account: string;
        account_number: string | null;
        sort_code: string | null;
        iban: string | null;
        bic: string | null;
      },
    ): Promise<BankAccountRow | undefined> {
      return executor
        .insertInto('bank_accounts')
        .values(values)
        .onConflict((oc) => oc.columns(['user_id', 'currency']).doNothing())
        .returning(BANK_COLUMNS)
        .executeTakeFirst();
    },

    async lockBankAccount(executor: Kysely<DB>, id: number): Promise<BankAccountRow | undefined> {
      return executor
        .selectFrom('bank_accounts')
        .select(BANK_COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async updateBankAccount(
      executor: Kysely<DB>,
      id: number,
      values: Partial<
        Pick<
          BankAccountRow,
          | 'name_of_account'
          | 'account_number'
          | 'sort_code'
          | 'iban'
          | 'bic'
          | 'verified_at'
          | 'verified_by'
          | 'details_changed_at'
        >
      >,
    ): Promise<BankAccountRow> {
      return executor
        .updateTable('bank_accounts')
        .set({ ...values, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returning(BANK_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    // ---- settings ----

    listSettings(executor: Kysely<DB> = db): Promise<FiatSettingsRow[]> {
      return executor.selectFrom('fiat_bank_settings').selectAll().orderBy('currency').execute();
    },

    findSettings(currency: string, executor: Kysely<DB> = db): Promise<FiatSettingsRow | undefined> {
      return executor
        .selectFrom('fiat_bank_settings')
        .selectAll()
        .where('currency', '=', currency)
        .executeTakeFirst();
    },

    updateSettings(
      executor: Kysely<DB>,
      currency: string,
      values: Omit<FiatSettingsRow, 'currency' | 'updated_at'>,
    ): Promise<FiatSettingsRow> {
      return executor
        .updateTable('fiat_bank_settings')
        .set({ ...values, updated_at: sql<Date>`now()` })
        .where('currency', '=', currency)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The configured minimum, fee and fee-free amount of a fiat currency (the currencies table). */
    async findCurrencyRules(currency: string, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('currencies')
        .select(['code', 'symbol', 'withdraw_min', 'withdraw_fee', 'withdraw_fee_free_from'])
        .where('code', '=', currency)
        .executeTakeFirst();
    },

    /** findCurrencyRules for every active currency, in the order the screens list them. */
    async listCurrencyRules() {
      return db
        .selectFrom('currencies')
        .select(['code', 'symbol', 'withdraw_min', 'withdraw_fee', 'withdraw_fee_free_from'])
        .where('active', '=', true)
        .orderBy('sort_order')
        .execute();
    },

    // ---- the customer's activity ----

    async listActivity(
      userId: number,
      currency: string | undefined,
      limit: number,
      offset: number,
    ): Promise<{ type: 'deposit' | 'withdrawal'; id: string; created_at: Date }[]> {
      const rows = await sql<{ type: 'deposit' | 'withdrawal'; id: string; created_at: Date }>`
        SELECT type, id, created_at FROM (${activityOf(userId, currency)}) activity
        ORDER BY created_at DESC, type, seq DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
      return rows.rows;
    },

    async countActivity(userId: number, currency: string | undefined): Promise<number> {
      const total = await sql<{ count: string }>`
        SELECT count(*)::text AS count FROM (${activityOf(userId, currency)}) activity`.execute(db);
      return Number(total.rows[0]?.count ?? 0);
    },
  };
}
