import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type OptionRow = {
  id: number;
  asset: string;
  coin_id: string;
  no_days: number;
  interest_rate: string;
  active: boolean;
  /** Whether staff offer the coin at all (coins.active): a deactivated coin takes no new deposits. */
  coin_active: boolean;
  amount_min: string;
  amount_max: string | null;
  total_cap: string | null;
};

/** The terms staff offer (a coin, a number of days, a rate, limits), and what live deposits hold under each. */
export function createTermDepositOptionRepository(db: Kysely<DB>) {
  const options = (executor: Executor) =>
    executor
      .selectFrom('term_deposit_options as o')
      .innerJoin('coins as c', 'c.asset', 'o.asset')
      .select([
        'o.id',
        'o.asset',
        'c.coin_id',
        'o.no_days',
        'o.interest_rate',
        'o.active',
        'c.active as coin_active',
        'o.amount_min',
        'o.amount_max',
        'o.total_cap',
      ]);

  return {
    listOptions(onlyActive: boolean): Promise<OptionRow[]> {
      let query = options(db);
      if (onlyActive) query = query.where('o.active', '=', true);
      return query.orderBy('c.sort_order').orderBy('o.no_days').execute();
    },

    findOption(id: number, executor: Executor = db): Promise<OptionRow | undefined> {
      return options(executor).where('o.id', '=', id).executeTakeFirst();
    },

    /** Serialises the deposits made under one option, so its cap holds. */
    async lockOption(trx: Transaction<DB>, id: number): Promise<boolean> {
      const row = await trx
        .selectFrom('term_deposit_options')
        .select('id')
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined;
    },

    /** What live deposits hold under each option (all when ids is unset). */
    async liveTotals(executor: Executor, ids?: readonly number[]): Promise<Map<number, bigint>> {
      let query = executor
        .selectFrom('term_deposits')
        .select(['option_id', sql<string>`sum(amount)`.as('total')])
        .where('status', '=', 'live')
        .groupBy('option_id');
      if (ids) query = query.where('option_id', 'in', ids.length > 0 ? ids : [-1]);
      const rows = await query.execute();
      return new Map(rows.map((row) => [row.option_id, BigInt(row.total)]));
    },

    async insertOption(
      trx: Transaction<DB>,
      values: {
        asset: string;
        no_days: number;
        interest_rate: string;
        active: boolean;
        amount_min: string;
        amount_max: string | null;
        total_cap: string | null;
      },
    ): Promise<number | undefined> {
      const row = await trx
        .insertInto('term_deposit_options')
        .values(values)
        .onConflict((oc) => oc.columns(['asset', 'no_days']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async updateOption(
      trx: Transaction<DB>,
      id: number,
      values: {
        no_days: number;
        interest_rate: string;
        active: boolean;
        amount_min: string;
        amount_max: string | null;
        total_cap: string | null;
      },
    ): Promise<void> {
      await trx
        .updateTable('term_deposit_options')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    async isDaysTaken(executor: Executor, asset: string, noDays: number, exceptId: number): Promise<boolean> {
      const row = await executor
        .selectFrom('term_deposit_options')
        .select('id')
        .where('asset', '=', asset)
        .where('no_days', '=', noDays)
        .where('id', '<>', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
