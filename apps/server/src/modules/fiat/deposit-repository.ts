import { sql, type Kysely } from 'kysely';
import type { DB, FiatDepositStatus, FiatSuspenseReason } from '../../db/schema.js';

export type DepositRow = {
  id: string;
  currency: string;
  bank_transaction_id: string;
  amount: string;
  payer_name: string;
  payer_sort_code: string | null;
  payer_account_number: string | null;
  payer_iban: string | null;
  payer_bic: string | null;
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

export type FiatDepositRepository = ReturnType<typeof createFiatDepositRepository>;

/** The incoming bank transfers, claimed once per bank transaction id. */
export function createFiatDepositRepository(db: Kysely<DB>) {
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
        'fiat_deposits.payer_sort_code',
        'fiat_deposits.payer_account_number',
        'fiat_deposits.payer_iban',
        'fiat_deposits.payer_bic',
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
    /** Claims the bank transaction id: undefined when it was recorded before. */
    async insertDeposit(
      executor: Kysely<DB>,
      values: {
        currency: string;
        bank_transaction_id: string;
        amount: string;
        payer_name: string;
        payer_sort_code: string | null;
        payer_account_number: string | null;
        payer_iban: string | null;
        payer_bic: string | null;
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

    listDepositsByIds(ids: readonly string[]): Promise<DepositRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return deposits(db)
        .where('fiat_deposits.id', 'in', [...ids])
        .execute();
    },
  };
}
