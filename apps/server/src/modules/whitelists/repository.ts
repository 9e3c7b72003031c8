import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';

/** The customer facts the whitelist rules read. */
export type WhitelistCustomer = {
  id: number;
  user_identification: string;
  first_name: string;
  email: string;
  has_totp: boolean;
  login_notifications: boolean;
  loginout_notifications: boolean;
};

export type WalletRow = {
  id: string;
  asset: string;
  address: string;
  tag: string | null;
  label: string;
  usable_from: Date;
  created_at: Date;
  usable: boolean;
};

export type IpRow = {
  id: string;
  ip_address: string;
  city: string | null;
  country: string | null;
  created_at: Date;
};

/** A wallet's columns, with whether its wait is over at `now`. */
const walletColumns = (now: Date) =>
  [
    'id',
    'asset',
    'address',
    'tag',
    'label',
    'usable_from',
    'created_at',
    sql<boolean>`usable_from <= ${now}`.as('usable'),
  ] as const;

const IP_COLUMNS = ['id', 'ip_address', 'city', 'country', 'created_at'] as const;

/** A row that a partial unique index refused: the same address or IP is already live on the list. */
export function isUniqueViolation(error: unknown, index: string): boolean {
  const details = error as { code?: string; constraint?: string; message?: string };
  return (
    details.code === '23505' && (details.constraint === index || (details.message ?? '').includes(index))
  );
}

/**
 * Whitelisted withdrawal addresses and sign-in IPs. Every query names its
 * owner: a row of another customer is never found. Removed rows stay, with
 * deleted_at set, and are invisible here except to the record. A new
 * wallet's wait and a confirmed removal run by `clock`, the app's.
 */
export function createWhitelistRepository(db: Kysely<DB>, clock: Clock) {
  async function countLiveIps(userId: number, executor: Kysely<DB> = db): Promise<number> {
    const row = await executor
      .selectFrom('whitelisted_ips')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  return {
    findCustomer(userId: number): Promise<WhitelistCustomer | undefined> {
      return db
        .selectFrom('users')
        .select([
          'id',
          'user_identification',
          'first_name',
          'email',
          'login_notifications',
          'loginout_notifications',
          sql<boolean>`totp_secret_encrypted IS NOT NULL`.as('has_totp'),
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /** Serialises one customer's whitelist changes (the first-IP rule reads, then writes). */
    async lockCustomer(executor: Kysely<DB>, userId: number): Promise<void> {
      await executor.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    },

    // ---- wallets ----

    insertWallet(
      values: {
        user_id: number;
        asset: string;
        address: string;
        tag: string | null;
        label: string;
        usableAfterHours: number;
      },
      executor: Kysely<DB> = db,
    ): Promise<WalletRow> {
      const now = clock.now();
      return executor
        .insertInto('whitelisted_wallets')
        .values({
          user_id: values.user_id,
          asset: values.asset,
          address: values.address,
          tag: values.tag,
          label: values.label,
          usable_from: new Date(now.getTime() + values.usableAfterHours * 3_600_000),
        })
        .returning(walletColumns(now))
        .executeTakeFirstOrThrow();
    },

    async listWallets(
      userId: number,
      options: { asset?: string; limit: number },
    ): Promise<{ rows: WalletRow[]; total: number }> {
      let base = db
        .selectFrom('whitelisted_wallets')
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null);
      if (options.asset) base = base.where('asset', '=', options.asset);
      const [rows, count] = await Promise.all([
        base
          .select(walletColumns(clock.now()))
          .orderBy('created_at', 'desc')
          .orderBy('seq', 'desc')
          .limit(options.limit)
          .execute(),
        base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.total) };
    },

    findLiveWallet(userId: number, id: string): Promise<WalletRow | undefined> {
      return db
        .selectFrom('whitelisted_wallets')
        .select(walletColumns(clock.now()))
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    findLiveWalletByAddress(
      userId: number,
      asset: string,
      address: string,
      tag: string | null,
    ): Promise<WalletRow | undefined> {
      return db
        .selectFrom('whitelisted_wallets')
        .select(walletColumns(clock.now()))
        .where('user_id', '=', userId)
        .where('asset', '=', asset)
        .where('address', '=', address)
        .where(tag === null ? sql<boolean>`tag IS NULL` : sql<boolean>`tag = ${tag}::bigint`)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /** The removal code was right: DELETE may remove the wallet for `minutes`. */
    async markRemovalVerified(userId: number, id: string, minutes: number): Promise<boolean> {
      const result = await db
        .updateTable('whitelisted_wallets')
        .set({ removal_verified_until: new Date(clock.now().getTime() + minutes * 60_000) })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Marks the wallet removed if its removal was confirmed and that has not run out; false otherwise. */
    async removeVerifiedWallet(userId: number, id: string, executor: Kysely<DB> = db): Promise<boolean> {
      const result = await executor
        .updateTable('whitelisted_wallets')
        .set({ deleted_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .where('removal_verified_until', '>', clock.now())
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    // ---- IPs ----

    insertIp(
      executor: Kysely<DB>,
      values: { user_id: number; ip_address: string; city: string | null; country: string | null },
    ): Promise<IpRow> {
      return executor
        .insertInto('whitelisted_ips')
        .values(values)
        .returning(IP_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    countLiveIps,

    async saveIpLocation(id: string, location: { city: string; country: string }): Promise<void> {
      await db.updateTable('whitelisted_ips').set(location).where('id', '=', id).execute();
    },

    async listIps(userId: number, limit: number): Promise<{ rows: IpRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('whitelisted_ips')
          .select(IP_COLUMNS)
          .where('user_id', '=', userId)
          .where('deleted_at', 'is', null)
          .orderBy('created_at', 'desc')
          .orderBy('seq', 'desc')
          .limit(limit)
          .execute(),
        countLiveIps(userId),
      ]);
      return { rows, total };
    },

    async listLiveIpAddresses(userId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('whitelisted_ips')
        .select('ip_address')
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
      return rows.map((row) => row.ip_address);
    },

    findLiveIp(userId: number, id: string): Promise<IpRow | undefined> {
      return db
        .selectFrom('whitelisted_ips')
        .select(IP_COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    findLiveIpByAddress(userId: number, ip: string, executor: Kysely<DB> = db): Promise<IpRow | undefined> {
      return executor
        .selectFrom('whitelisted_ips')
        .select(IP_COLUMNS)
        .where('user_id', '=', userId)
        .where('ip_address', '=', ip)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async removeIp(userId: number, id: string, executor: Kysely<DB> = db): Promise<boolean> {
      const result = await executor
        .updateTable('whitelisted_ips')
        .set({ deleted_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type WhitelistRepository = ReturnType<typeof createWhitelistRepository>;
