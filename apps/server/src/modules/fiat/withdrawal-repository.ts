import type { Kysely } from 'kysely';
import {
  ON_HOLD,
  type DB,
  type FiatWithdrawalStatus,
  type FiatWithdrawalsTable,
  type RowOf,
} from '../../db/schema.js';

export type WithdrawalRow = RowOf<FiatWithdrawalsTable>;

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

export type FiatWithdrawalRepository = ReturnType<typeof createFiatWithdrawalRepository>;

/** The fiat withdrawals: a customer's requests, the payout queue and the payout file. */
export function createFiatWithdrawalRepository(db: Kysely<DB>) {
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

  return {
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
                .where('users.block_status', '=', ON_HOLD),
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
