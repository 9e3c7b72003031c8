import { sql, type Kysely } from 'kysely';
import type { DB, DepositAddressesTable, RowOf } from '../../db/schema.js';

export type DepositAddressRow = RowOf<DepositAddressesTable>;

const ADDRESS_COLUMNS = [
  'id',
  'asset',
  'user_id',
  'derivation_index',
  'address',
  'tag',
  'created_at',
] as const;

/** The customers' deposit addresses, one per coin, derived from a per-coin counter. */
export function createDepositAddressRepository(db: Kysely<DB>) {
  return {
    listAddresses(userId: number): Promise<DepositAddressRow[]> {
      return db
        .selectFrom('deposit_addresses')
        .select(ADDRESS_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('seq')
        .execute();
    },

    findAddress(userId: number, asset: string, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('deposit_addresses')
        .select(ADDRESS_COLUMNS)
        .where('user_id', '=', userId)
        .where('asset', '=', asset)
        .executeTakeFirst();
    },

    /** Every address of a coin: the watcher matches payments against them. */
    listAddressesOfAsset(asset: string) {
      return db
        .selectFrom('deposit_addresses')
        .select(['id', 'user_id', 'address', 'tag'])
        .where('asset', '=', asset)
        .execute();
    },

    /** The next derivation index of a coin; the counter row stays locked until the transaction ends. */
    async takeIndex(trx: Kysely<DB>, asset: string): Promise<number> {
      const row = await trx
        .updateTable('deposit_address_counters')
        .set({ next_index: sql<number>`next_index + 1` })
        .where('asset', '=', asset)
        .returning(sql<number>`next_index - 1`.as('index'))
        .executeTakeFirstOrThrow();
      return Number(row.index);
    },

    /** Inserts the customer's address; undefined when they already have one for the coin. */
    insertAddress(
      trx: Kysely<DB>,
      values: {
        asset: string;
        user_id: number;
        derivation_index: number;
        address: string;
        tag: string | null;
      },
    ): Promise<DepositAddressRow | undefined> {
      return trx
        .insertInto('deposit_addresses')
        .values(values)
        .onConflict((conflict) => conflict.columns(['asset', 'user_id']).doNothing())
        .returning(ADDRESS_COLUMNS)
        .executeTakeFirst();
    },
  };
}
