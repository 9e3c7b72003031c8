import type { Kysely } from 'kysely';
import type { CryptoWithdrawalStatus, CryptoWithdrawalsTable, DB, RowOf } from '../../db/schema.js';

export type AdminCryptoWithdrawalRow = RowOf<CryptoWithdrawalsTable> & {
  user_identification: string;
  first_name: string;
  last_name: string;
  email: string;
  block_status: number;
  approved_by_email: string | null;
  second_approved_by_email: string | null;
  sent_by_email: string | null;
};

/** The back office's lists of crypto withdrawals, with the customer and the staff who acted on each. */
export function createCryptoWithdrawalAdminRepository(db: Kysely<DB>) {
  function adminRows(executor: Kysely<DB>) {
    return executor
      .selectFrom('crypto_withdrawals as w')
      .innerJoin('users', 'users.id', 'w.user_id')
      .leftJoin('staff as approver', 'approver.id', 'w.approved_by')
      .leftJoin('staff as second', 'second.id', 'w.second_approved_by')
      .leftJoin('staff as sender', 'sender.id', 'w.sent_by')
      .selectAll('w')
      .select([
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.block_status',
        'approver.email as approved_by_email',
        'second.email as second_approved_by_email',
        'sender.email as sent_by_email',
      ]);
  }

  return {
    findAdmin(id: string): Promise<AdminCryptoWithdrawalRow | undefined> {
      return adminRows(db).where('w.id', '=', id).executeTakeFirst();
    },

    async countAdmin(status: 'open' | CryptoWithdrawalStatus): Promise<number> {
      const statuses: CryptoWithdrawalStatus[] =
        status === 'open' ? ['pending', 'approved', 'sent'] : [status];
      const row = await db
        .selectFrom('crypto_withdrawals')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('status', 'in', statuses)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    listAdmin(status: 'open' | CryptoWithdrawalStatus, limit: number, offset: number) {
      const statuses: CryptoWithdrawalStatus[] =
        status === 'open' ? ['pending', 'approved', 'sent'] : [status];
      const direction = status === 'open' ? 'asc' : 'desc';
      return adminRows(db)
        .where('w.status', 'in', statuses)
        .orderBy('w.created_at', direction)
        .orderBy('w.seq', direction)
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
