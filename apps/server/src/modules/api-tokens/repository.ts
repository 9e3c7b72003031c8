import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

export type ApiTokenRow = {
  id: string;
  user_id: number;
  prefix: string;
  permission_id: number;
  ip_allowlist: string[] | null;
  created_at: Date;
  deleted_at: Date | null;
  last_used_at: Date | null;
};

const COLUMNS = [
  'id',
  'user_id',
  'prefix',
  'permission_id',
  'ip_allowlist',
  'created_at',
  'deleted_at',
  'last_used_at',
] as const;

type Executor = Kysely<DB> | Transaction<DB>;

/**
 * API tokens by their hash. Every query a customer's request reaches names
 * the owner, so another customer's token is never found.
 */
export function createApiTokenRepository(db: Kysely<DB>) {
  return {
    /** Holds the customer's row until the transaction ends, so two generations count one after the other. */
    async lockCustomer(executor: Executor, userId: number): Promise<boolean> {
      const row = await executor
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
      return row !== undefined;
    },

    async countLive(executor: Executor, userId: number): Promise<number> {
      const row = await executor
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async insert(
      executor: Executor,
      token: {
        id: string;
        userId: number;
        tokenHash: string;
        prefix: string;
        permissionId: number;
        ipAllowlist: string[] | null;
      },
    ): Promise<ApiTokenRow> {
      return executor
        .insertInto('api_tokens')
        .values({
          id: token.id,
          user_id: token.userId,
          token_hash: token.tokenHash,
          prefix: token.prefix,
          permission_id: token.permissionId,
          ip_allowlist: token.ipAllowlist,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    },

    async listForUser(userId: number): Promise<ApiTokenRow[]> {
      return db
        .selectFrom('api_tokens')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /** Sets deleted_at once; false when the customer has no live token with this id. */
    async softDelete(userId: number, id: string): Promise<boolean> {
      const result = await db
        .updateTable('api_tokens')
        .set({ deleted_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async exists(userId: number, id: string): Promise<boolean> {
      const row = await db
        .selectFrom('api_tokens')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The live token with this hash. */
    /** A token that works: not deleted, and of an account whose access has not ended (issue 13). */
    async findLiveByHash(
      tokenHash: string,
    ): Promise<(ApiTokenRow & { terminated_at: Date | null }) | undefined> {
      return db
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select([...COLUMNS.map((column) => `api_tokens.${column}` as const), 'users.terminated_at'])
        .where('api_tokens.token_hash', '=', tokenHash)
        .where('api_tokens.deleted_at', 'is', null)
        .where((eb) =>
          eb.or([eb('users.access_ends_at', 'is', null), eb('users.access_ends_at', '>', sql<Date>`now()`)]),
        )
        .executeTakeFirst();
    },

    async touch(id: string): Promise<void> {
      await db
        .updateTable('api_tokens')
        .set({ last_used_at: sql<Date>`now()` })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type ApiTokenRepository = ReturnType<typeof createApiTokenRepository>;
