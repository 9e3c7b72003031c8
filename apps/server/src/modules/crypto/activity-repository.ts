import { sql, type Kysely } from 'kysely';
import type { CryptoWithdrawalsTable, DB, RowOf } from '../../db/schema.js';

/** The customer's activity list: their deposits and withdrawals in one order. */
export function createCryptoActivityRepository(db: Kysely<DB>) {
  return {
    async countActivity(userId: number, asset?: string): Promise<number> {
      const result = await sql<{ count: string }>`
        SELECT (
          SELECT count(*) FROM crypto_deposits
          WHERE user_id = ${userId} AND status IN ('pending', 'credited')
            AND (${asset ?? null}::text IS NULL OR asset = ${asset ?? null})
        ) + (
          SELECT count(*) FROM crypto_withdrawals
          WHERE user_id = ${userId} AND (${asset ?? null}::text IS NULL OR asset = ${asset ?? null})
        ) AS count`.execute(db);
      return Number(result.rows[0]?.count ?? 0);
    },

    async listActivity(userId: number, asset: string | undefined, limit: number, offset: number) {
      const result = await sql<{ type: 'deposit' | 'withdrawal'; id: string }>`
        SELECT 'deposit' AS type, id::text AS id, created_at, seq FROM crypto_deposits
        WHERE user_id = ${userId} AND status IN ('pending', 'credited')
          AND (${asset ?? null}::text IS NULL OR asset = ${asset ?? null})
        UNION ALL
        SELECT 'withdrawal', id::text, created_at, seq FROM crypto_withdrawals
        WHERE user_id = ${userId} AND (${asset ?? null}::text IS NULL OR asset = ${asset ?? null})
        ORDER BY created_at DESC, type, seq DESC
        LIMIT ${limit} OFFSET ${offset}`.execute(db);
      return result.rows;
    },

    listByIds(ids: readonly string[]): Promise<RowOf<CryptoWithdrawalsTable>[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('crypto_withdrawals').selectAll().where('id', 'in', ids).execute();
    },

    listDepositsByIds(ids: readonly string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('crypto_deposits').selectAll().where('id', 'in', ids).execute();
    },
  };
}
