import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  BankAccountsTable,
  DB,
  FiatBankSettingsTable,
  FiatDepositStatus,
  FiatSuspenseReason,
  FiatWithdrawalStatus,
  FiatWithdrawalsTable,
  RowOf,
} from '../../db/schema.js';

export type BankAccountRow = RowOf<BankAccountsTable>;
export type FiatSettingsRow = Selectable<FiatBankSettingsTable>;
export type WithdrawalRow = RowOf<FiatWithdrawalsTable>;

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

export type DepositRow = {
  id: string;
  currency: string;
  bank_transaction_id: string;
  amount: string;
  payer_name: string;
  reference: string;
  value_date: string | null;
  source: 'manual' | 'import';
  status: FiatDepositStatus;
  suspense_reason: FiatSuspenseReason | null;
  user_id: number | null;
  user_identification: string | null;
  first_name: string | null;
  last_name: string | null;
  resolution_note: string | null;
  created_at: Date;
  resolved_at: Date | null;
};

export type AdminWithdrawalRow = WithdrawalRow & {
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  block_status: number;
  approved_by_email: string | null;
  paid_by_email: string | null;
  rejected_by_email: string | null;
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

const WITHDRAWAL_COLUMNS = [
  'fiat_withdrawals.id',
  'fiat_withdrawals.user_id',
  'fiat_withdrawals.idempotency_key',
  'fiat_withdrawals.request_hash',
  'fiat_withdrawals.currency',
  'fiat_withdrawals.amount',
  'fiat_withdrawals.fee',
  'fiat_withdrawals.bank_account_id',
  'fiat_withdrawals.name_of_account',
  'fiat_withdrawals.account_number',
  'fiat_withdrawals.sort_code',
  'fiat_withdrawals.iban',
  'fiat_withdrawals.bic',
  'fiat_withdrawals.status',
  'fiat_withdrawals.hold_id',
  'fiat_withdrawals.journal_id',
  'fiat_withdrawals.needs_second_approval',
  'fiat_withdrawals.approved_by',
  'fiat_withdrawals.approved_at',
  'fiat_withdrawals.paid_by',
  'fiat_withdrawals.paid_at',
  'fiat_withdrawals.payment_reference',
  'fiat_withdrawals.rejected_by',
  'fiat_withdrawals.rejected_at',
  'fiat_withdrawals.reject_reason',
  'fiat_withdrawals.cancelled_at',
  'fiat_withdrawals.exported_at',
  'fiat_withdrawals.exported_by',
  'fiat_withdrawals.created_at',
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

  function adminWithdrawals(executor: Kysely<DB>) {
    return executor
      .selectFrom('fiat_withdrawals')
      .innerJoin('users', 'users.id', 'fiat_withdrawals.user_id')
      .leftJoin('staff as approver', 'approver.id', 'fiat_withdrawals.approved_by')
      .leftJoin('staff as payer', 'payer.id', 'fiat_withdrawals.paid_by')
      .leftJoin('staff as rejecter', 'rejecter.id', 'fiat_withdrawals.rejected_by')
      .select([
        ...WITHDRAWAL_COLUMNS,
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.block_status',
        'approver.email as approved_by_email',
        'payer.email as paid_by_email',
        'rejecter.email as rejected_by_email',
      ]);
  }

  function deposits(executor: Kysely<DB>) {
    return executor
      .selectFrom('fiat_deposits')
      .leftJoin('users', 'users.id', 'fiat_deposits.user_id')
      .select([
        'fiat_deposits.id',
        'fiat_deposits.currency',
        'fiat_deposits.bank_transaction_id',
        'fiat_deposits.amount',
        'fiat_deposits.payer_name',
        'fiat_deposits.reference',
        'fiat_deposits.value_date',
        'fiat_deposits.source',
        'fiat_deposits.status',
        'fiat_deposits.suspense_reason',
        'fiat_deposits.user_id',
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'fiat_deposits.resolution_note',
        'fiat_deposits.created_at',
        'fiat_deposits.resolved_at',
      ]);
  }

  return {
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

    // ---- withdrawals ----

    async insertWithdrawal(
      executor: Kysely<DB>,
      values: Omit<
        WithdrawalRow,
        | 'id'
        | 'status'
        | 'journal_id'
        | 'approved_by'
        | 'approved_at'
        | 'paid_by'
        | 'paid_at'
        | 'payment_reference'
        | 'rejected_by'
        | 'rejected_at'
        | 'reject_reason'
        | 'cancelled_at'
        | 'exported_at'
        | 'exported_by'
        | 'created_at'
      >,
    ): Promise<WithdrawalRow> {
      return executor
        .insertInto('fiat_withdrawals')
        .values({ ...values, status: 'pending' })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    findWithdrawalByKey(
      executor: Kysely<DB>,
      userId: number,
      key: string,
    ): Promise<WithdrawalRow | undefined> {
      return executor
        .selectFrom('fiat_withdrawals')
        .select(WITHDRAWAL_COLUMNS)
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    findWithdrawal(id: string, executor: Kysely<DB> = db): Promise<WithdrawalRow | undefined> {
      return executor
        .selectFrom('fiat_withdrawals')
        .select(WITHDRAWAL_COLUMNS)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    lockWithdrawal(executor: Kysely<DB>, id: string): Promise<WithdrawalRow | undefined> {
      return executor
        .selectFrom('fiat_withdrawals')
        .select(WITHDRAWAL_COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async updateWithdrawal(
      executor: Kysely<DB>,
      id: string,
      values: Partial<
        Pick<
          WithdrawalRow,
          | 'status'
          | 'journal_id'
          | 'approved_by'
          | 'approved_at'
          | 'paid_by'
          | 'paid_at'
          | 'payment_reference'
          | 'rejected_by'
          | 'rejected_at'
          | 'reject_reason'
          | 'cancelled_at'
        >
      > & { status: FiatWithdrawalStatus },
    ): Promise<void> {
      await executor.updateTable('fiat_withdrawals').set(values).where('id', '=', id).execute();
    },

    findAdminWithdrawal(id: string, executor: Kysely<DB> = db): Promise<AdminWithdrawalRow | undefined> {
      return adminWithdrawals(executor).where('fiat_withdrawals.id', '=', id).executeTakeFirst();
    },

    listAdminWithdrawals(
      status: 'open' | FiatWithdrawalStatus,
      limit: number,
      offset: number,
    ): Promise<AdminWithdrawalRow[]> {
      const statuses: FiatWithdrawalStatus[] = status === 'open' ? ['pending', 'approved'] : [status];
      const direction = status === 'open' ? 'asc' : 'desc';
      return adminWithdrawals(db)
        .where('fiat_withdrawals.status', 'in', statuses)
        .orderBy('fiat_withdrawals.created_at', direction)
        .orderBy('fiat_withdrawals.seq', direction)
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async countWithdrawals(status: 'open' | FiatWithdrawalStatus): Promise<number> {
      const statuses: FiatWithdrawalStatus[] = status === 'open' ? ['pending', 'approved'] : [status];
      const row = await db
        .selectFrom('fiat_withdrawals')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('status', 'in', statuses)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Marks the open withdrawals that may be paid now (small ones, or large ones approved, of customers
     * not on hold) and that no payout file has listed yet as exported, and returns them oldest first. One
     * UPDATE: a cancel that committed first is left out, one that comes after finds the withdrawal exported.
     */
    async exportPayable(
      executor: Kysely<DB>,
      currency: string,
      staffId: number | null,
    ): Promise<AdminWithdrawalRow[]> {
      const exported = await executor
        .updateTable('fiat_withdrawals')
        .set({ exported_at: new Date(), exported_by: staffId })
        .where('currency', '=', currency)
        .where('exported_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'approved'),
            eb.and([eb('status', '=', 'pending'), eb('needs_second_approval', '=', false)]),
          ]),
        )
        // A hold stops the money leaving: its withdrawals wait for a file made after it is lifted.
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('users')
                .select('users.id')
                .whereRef('users.id', '=', 'fiat_withdrawals.user_id')
                .where('users.block_status', '=', 2),
            ),
          ),
        )
        .returning('id')
        .execute();
      if (exported.length === 0) return [];
      return adminWithdrawals(executor)
        .where(
          'fiat_withdrawals.id',
          'in',
          exported.map((row) => row.id),
        )
        .orderBy('fiat_withdrawals.created_at', 'asc')
        .orderBy('fiat_withdrawals.seq', 'asc')
        .execute();
    },

    // ---- deposits ----

    /** Claims the bank transaction id: undefined when it was recorded before. */
    async insertDeposit(
      executor: Kysely<DB>,
      values: {
        currency: string;
        bank_transaction_id: string;
        amount: string;
        payer_name: string;
        reference: string;
        value_date: string | null;
        source: 'manual' | 'import';
        status: FiatDepositStatus;
        suspense_reason: FiatSuspenseReason | null;
        user_id: number | null;
        recorded_by: number | null;
      },
    ): Promise<string | undefined> {
      const row = await executor
        .insertInto('fiat_deposits')
        .values(values)
        .onConflict((oc) => oc.columns(['currency', 'bank_transaction_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    findDeposit(id: string, executor: Kysely<DB> = db): Promise<DepositRow | undefined> {
      return deposits(executor).where('fiat_deposits.id', '=', id).executeTakeFirst();
    },

    findDepositByTransaction(currency: string, transactionId: string, executor: Kysely<DB> = db) {
      return deposits(executor)
        .where('fiat_deposits.currency', '=', currency)
        .where('fiat_deposits.bank_transaction_id', '=', transactionId)
        .executeTakeFirst();
    },

    async lockDeposit(executor: Kysely<DB>, id: string) {
      return executor
        .selectFrom('fiat_deposits')
        .select(['id', 'status', 'currency', 'amount', 'bank_transaction_id', 'user_id'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async resolveDeposit(
      executor: Kysely<DB>,
      id: string,
      values: {
        status: FiatDepositStatus;
        user_id?: number;
        resolved_by: number | null;
        resolution_note: string;
      },
    ): Promise<void> {
      await executor
        .updateTable('fiat_deposits')
        .set({ ...values, resolved_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute();
    },

    listDepositsPage(
      status: FiatDepositStatus | undefined,
      limit: number,
      offset: number,
    ): Promise<DepositRow[]> {
      let query = deposits(db);
      if (status) query = query.where('fiat_deposits.status', '=', status);
      // The suspense list is worked oldest first; everything else reads newest first.
      const direction = status === 'suspense' ? 'asc' : 'desc';
      return query
        .orderBy('fiat_deposits.created_at', direction)
        .orderBy('fiat_deposits.seq', direction)
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async countDeposits(status: FiatDepositStatus | undefined): Promise<number> {
      let count = db.selectFrom('fiat_deposits').select((eb) => eb.fn.countAll<string>().as('count'));
      if (status) count = count.where('status', '=', status);
      return Number((await count.executeTakeFirstOrThrow()).count);
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

    listDepositsByIds(ids: readonly string[]): Promise<DepositRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return deposits(db)
        .where('fiat_deposits.id', 'in', [...ids])
        .execute();
    },

    listWithdrawalsByIds(ids: readonly string[]): Promise<WithdrawalRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('fiat_withdrawals')
        .select(WITHDRAWAL_COLUMNS)
        .where('id', 'in', [...ids])
        .execute();
    },
  };
}
