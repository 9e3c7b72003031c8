import { sql, type Kysely } from 'kysely';
import { CRYPTO_DEPOSIT_TRANSITIONS } from '@florin/contracts';
import type { CryptoDepositStatus, CryptoDepositsTable, DB, RowOf } from '../../db/schema.js';
import { statesThatMayBecome } from '../../lifecycle.js';
import { createDepositAddressRepository } from './address-repository.js';

export type { DepositAddressRow } from './address-repository.js';

export type CryptoDepositRow = RowOf<CryptoDepositsTable>;
export type AdminCryptoDepositRow = CryptoDepositRow & {
  user_identification: string | null;
  first_name: string | null;
  last_name: string | null;
};

/** The customer facts deposits read: whether they may receive, and where to mail. */
export type CryptoCustomer = {
  id: number;
  first_name: string;
  email: string;
  status: number;
  block_status: number;
  login_notifications: boolean;
  loginout_notifications: boolean;
};

export type CoinRules = {
  asset: string;
  coin_id: string;
  active: boolean;
  disable_deposit: boolean;
  confirmations: number;
};

const DEPOSIT_COLUMNS = [
  'crypto_deposits.id',
  'crypto_deposits.asset',
  'crypto_deposits.txid',
  'crypto_deposits.output',
  'crypto_deposits.address',
  'crypto_deposits.tag',
  'crypto_deposits.amount',
  'crypto_deposits.user_id',
  'crypto_deposits.deposit_address_id',
  'crypto_deposits.status',
  'crypto_deposits.confirmations',
  'crypto_deposits.required_confirmations',
  'crypto_deposits.journal_id',
  'crypto_deposits.last_seen_at',
  'crypto_deposits.credited_at',
  'crypto_deposits.dropped_at',
  'crypto_deposits.resolved_by',
  'crypto_deposits.resolved_at',
  'crypto_deposits.resolution_note',
  'crypto_deposits.created_at',
] as const;

/** What the customer's list shows: deposits on their way and those on their balance. */
const CUSTOMER_STATUSES: CryptoDepositStatus[] = ['pending', 'credited'];

export type CryptoRepository = ReturnType<typeof createCryptoRepository>;

/**
 * The crypto deposit queries: customers, coins, the watcher's and the lists here, the deposit addresses
 * (address-repository.ts) beside it, as one object.
 */
export function createCryptoRepository(db: Kysely<DB>) {
  return {
    findCustomer(userId: number, executor: Kysely<DB> = db): Promise<CryptoCustomer | undefined> {
      return executor
        .selectFrom('users')
        .select([
          'id',
          'first_name',
          'email',
          'status',
          'block_status',
          'login_notifications',
          'loginout_notifications',
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    listCoins(): Promise<CoinRules[]> {
      return db
        .selectFrom('coins')
        .select(['asset', 'coin_id', 'active', 'disable_deposit', 'confirmations'])
        .orderBy('sort_order')
        .execute();
    },

    ...createDepositAddressRepository(db),

    // ---- the watcher ----

    async now(): Promise<Date> {
      const result = await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(db);
      return new Date(result.rows[0]!.now);
    },

    findCursor(asset: string) {
      return db
        .selectFrom('chain_cursors')
        .select(['cursor', 'height'])
        .where('asset', '=', asset)
        .executeTakeFirst();
    },

    async saveCursor(asset: string, cursor: string | null, height: number): Promise<void> {
      await db
        .insertInto('chain_cursors')
        .values({ asset, cursor, height })
        .onConflict((conflict) =>
          conflict.column('asset').doUpdateSet({ cursor, height, scanned_at: sql<Date>`now()` }),
        )
        .execute();
    },

    /**
     * Records a sighting: a new deposit (pending), or the latest confirmation
     * count of one still pending (a dropped one seen again is pending again).
     * Returns the row's id, and whether this sighting created or revived it.
     */
    async recordSighting(values: {
      asset: string;
      txid: string;
      output: number;
      address: string;
      tag: string | null;
      amount: string;
      user_id: number | null;
      deposit_address_id: string | null;
      confirmations: number;
      required_confirmations: number;
    }): Promise<{ id: string; isNew: boolean } | undefined> {
      const inserted = await db
        .insertInto('crypto_deposits')
        .values({ ...values, status: 'pending' })
        .onConflict((conflict) => conflict.columns(['asset', 'txid', 'output']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { id: inserted.id, isNew: true };
      const before = await db
        .selectFrom('crypto_deposits')
        .select('status')
        .where('asset', '=', values.asset)
        .where('txid', '=', values.txid)
        .where('output', '=', values.output)
        .executeTakeFirst();
      const updated = await db
        .updateTable('crypto_deposits')
        .set({
          confirmations: values.confirmations,
          required_confirmations: values.required_confirmations,
          last_seen_at: sql<Date>`clock_timestamp()`,
          status: 'pending',
          dropped_at: null,
        })
        .where('asset', '=', values.asset)
        .where('txid', '=', values.txid)
        .where('output', '=', values.output)
        // Seen again while pending, or back on the chain after it was dropped.
        .where('status', 'in', ['pending', ...statesThatMayBecome(CRYPTO_DEPOSIT_TRANSITIONS, 'pending')])
        .returning('id')
        .executeTakeFirst();
      return updated ? { id: updated.id, isNew: before?.status === 'dropped' } : undefined;
    },

    /** Pending deposits of a coin nobody has seen since `since`: they left the chain. */
    dropUnseen(asset: string, since: Date) {
      return db
        .updateTable('crypto_deposits')
        .set({ status: 'dropped', dropped_at: new Date() })
        .where('asset', '=', asset)
        .where('status', 'in', statesThatMayBecome(CRYPTO_DEPOSIT_TRANSITIONS, 'dropped'))
        .where('last_seen_at', '<', since)
        .returning(['id', 'user_id'])
        .execute();
    },

    listConfirmedPending(asset: string) {
      return db
        .selectFrom('crypto_deposits')
        .select('id')
        .where('asset', '=', asset)
        .where('status', '=', 'pending')
        .whereRef('confirmations', '>=', 'required_confirmations')
        .orderBy('seq')
        .execute();
    },

    lockDeposit(trx: Kysely<DB>, id: string): Promise<CryptoDepositRow | undefined> {
      return trx
        .selectFrom('crypto_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async updateDeposit(
      trx: Kysely<DB>,
      id: string,
      values: Partial<{
        status: CryptoDepositStatus;
        journal_id: string;
        credited_at: Date;
        user_id: number;
        resolved_by: number;
        resolved_at: Date;
        resolution_note: string;
      }>,
    ): Promise<void> {
      await trx.updateTable('crypto_deposits').set(values).where('id', '=', id).execute();
    },

    // ---- lists ----

    countCustomerDeposits(userId: number, asset?: string, status?: CryptoDepositStatus) {
      return db
        .selectFrom('crypto_deposits')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .where('status', 'in', status ? [status] : CUSTOMER_STATUSES)
        .$if(asset !== undefined, (query) => query.where('asset', '=', asset!))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.count));
    },

    listCustomerDeposits(
      userId: number,
      asset: string | undefined,
      status: CryptoDepositStatus | undefined,
      limit: number,
      offset: number,
    ): Promise<CryptoDepositRow[]> {
      return db
        .selectFrom('crypto_deposits')
        .select(DEPOSIT_COLUMNS)
        .where('user_id', '=', userId)
        .where('status', 'in', status ? [status] : CUSTOMER_STATUSES)
        .$if(asset !== undefined, (query) => query.where('asset', '=', asset!))
        .orderBy('seq', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    findAdminDeposit(id: string): Promise<AdminCryptoDepositRow | undefined> {
      return adminDeposits().where('crypto_deposits.id', '=', id).executeTakeFirst();
    },

    countAdminDeposits(status?: CryptoDepositStatus) {
      return db
        .selectFrom('crypto_deposits')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .$if(status !== undefined, (query) => query.where('status', '=', status!))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.count));
    },

    listAdminDeposits(status: CryptoDepositStatus | undefined, limit: number, offset: number) {
      return adminDeposits()
        .$if(status !== undefined, (query) => query.where('crypto_deposits.status', '=', status!))
        .orderBy('crypto_deposits.seq', status === 'suspense' ? 'asc' : 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };

  function adminDeposits() {
    return db
      .selectFrom('crypto_deposits')
      .leftJoin('users', 'users.id', 'crypto_deposits.user_id')
      .select([...DEPOSIT_COLUMNS, 'users.user_identification', 'users.first_name', 'users.last_name']);
  }
}
