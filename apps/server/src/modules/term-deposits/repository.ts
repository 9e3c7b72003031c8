import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTermDepositOptionRepository } from './option-repository.js';
import { TERM_DEPOSIT_TRANSITIONS } from './shared.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type TermDepositCustomer = {
  id: number;
  email: string;
  first_name: string;
  status: number;
  block_status: number;
  login_notifications: boolean;
  loginout_notifications: boolean;
};

export type { OptionRow } from './option-repository.js';

export type CoinRow = { coin_id: string; asset: string; name: string; scale: number };

export type DepositRow = {
  id: string;
  user_id: number;
  option_id: number;
  request_hash: string;
  asset: string;
  amount: string;
  no_days: number;
  interest_rate: string;
  interest: string;
  status: 'live' | 'expired';
  starts_at: Date;
  matures_at: Date;
  paid_at: Date | null;
};

const DEPOSIT_COLUMNS = [
  'term_deposits.id',
  'term_deposits.user_id',
  'term_deposits.option_id',
  'term_deposits.request_hash',
  'term_deposits.asset',
  'term_deposits.amount',
  'term_deposits.no_days',
  'term_deposits.interest_rate',
  'term_deposits.interest',
  'term_deposits.status',
  'term_deposits.starts_at',
  'term_deposits.matures_at',
  'term_deposits.paid_at',
] as const;

export type TermDepositRepository = ReturnType<typeof createTermDepositRepository>;

/** Every query of the term-deposits module: the options (option-repository.ts) and the deposits, as one object. */
export function createTermDepositRepository(db: Kysely<DB>) {
  return {
    ...createTermDepositOptionRepository(db),

    findCustomer(userId: number, executor: Kysely<DB> = db): Promise<TermDepositCustomer | undefined> {
      return executor
        .selectFrom('users')
        .select([
          'id',
          'email',
          'first_name',
          'status',
          'block_status',
          'login_notifications',
          'loginout_notifications',
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /** The coins customers see, in the product's order, with their scale. */
    listCoins(): Promise<CoinRow[]> {
      return db
        .selectFrom('coins as c')
        .innerJoin('assets as a', 'a.code', 'c.asset')
        .select(['c.coin_id', 'c.asset', 'c.name', 'a.scale'])
        .where('c.active', '=', true)
        .orderBy('c.sort_order')
        .execute();
    },

    async insertDeposit(
      trx: Transaction<DB>,
      values: {
        user_id: number;
        option_id: number;
        idempotency_key: string;
        request_hash: string;
        asset: string;
        amount: string;
        no_days: number;
        interest_rate: string;
        interest: string;
        starts_at: Date;
        matures_at: Date;
      },
    ): Promise<DepositRow | undefined> {
      return trx
        .insertInto('term_deposits')
        .values({ ...values, status: 'live' })
        .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
        .returning(DEPOSIT_COLUMNS)
        .executeTakeFirst();
    },

    findByKey(executor: Executor, userId: number, key: string): Promise<DepositRow | undefined> {
      return executor
        .selectFrom('term_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    listDeposits(userId: number, skip: number, take: number): Promise<DepositRow[]> {
      return db
        .selectFrom('term_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('seq', 'desc')
        .offset(skip)
        .limit(take)
        .execute();
    },

    async countDeposits(userId: number): Promise<number> {
      const row = await db
        .selectFrom('term_deposits')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async dueIds(now: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('term_deposits')
        .select('id')
        .where('status', '=', 'live')
        .where('matures_at', '<=', now)
        .orderBy('matures_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** The deposit if it is still live and due; another instance paying it right now makes this skip it. */
    lockDueDeposit(trx: Transaction<DB>, id: string, now: Date): Promise<DepositRow | undefined> {
      return trx
        .selectFrom('term_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('id', '=', id)
        .where('status', '=', 'live')
        .where('matures_at', '<=', now)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
    },

    /**
     * When the firm's termination of the customer takes effect, read under a share lock: a termination
     * committing meanwhile (it locks the customer for update, then shortens their live deposits) is seen.
     */
    async terminationOf(trx: Transaction<DB>, userId: number): Promise<Date | null> {
      const row = await trx
        .selectFrom('users')
        .select('terminated_at')
        .where('id', '=', userId)
        .forShare()
        .executeTakeFirst();
      return row?.terminated_at ?? null;
    },

    /** The customer's live deposits that end after `endsAt`, locked (the maturity job waits, then finds them shortened). */
    lockLiveEndingAfter(trx: Transaction<DB>, userId: number, endsAt: Date): Promise<DepositRow[]> {
      return trx
        .selectFrom('term_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('user_id', '=', userId)
        .where('status', '=', 'live')
        .where('matures_at', '>', endsAt)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async shortenDeposit(
      trx: Transaction<DB>,
      id: string,
      values: { matures_at: Date; interest: string },
    ): Promise<void> {
      await trx.updateTable('term_deposits').set(values).where('id', '=', id).execute();
    },

    /** Paid back: the deposit (as locked) moves as its lifecycle allows, or 409. */
    async markExpired(
      trx: Transaction<DB>,
      deposit: Pick<DepositRow, 'id' | 'status'>,
      paidAt: Date,
    ): Promise<void> {
      await trx
        .updateTable('term_deposits')
        .set({ status: transition(TERM_DEPOSIT_TRANSITIONS, deposit.status, 'expired'), paid_at: paidAt })
        .where('id', '=', deposit.id)
        .where('status', 'in', statesThatMayBecome(TERM_DEPOSIT_TRANSITIONS, 'expired'))
        .execute();
    },
  };
}
