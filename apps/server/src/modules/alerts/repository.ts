import type { NotificationFlags } from '@florin/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** One line of a customer's day: their trades of one side, coin and fiat, summed. */
export type DaySummaryRow = {
  user_id: number;
  side: 'buy' | 'sell';
  asset: string;
  fiat: string;
  trades: number;
  quantity: string;
  total: string;
};

export type SummaryRecipient = {
  id: number;
  email: string;
  first_name: string;
  login_notifications: boolean;
  loginout_notifications: boolean;
  marketing_notifications: boolean;
  trade_notifications: boolean;
};

export function createAlertsRepository(db: Kysely<DB>) {
  return {
    async updateFlags(userId: number, flags: NotificationFlags): Promise<NotificationFlags | undefined> {
      return db
        .updateTable('users')
        .set({
          login_notifications: flags.login_notifications,
          loginout_notifications: flags.loginout_notifications,
          marketing_notifications: flags.marketing_notifications,
          trade_notifications: flags.trade_notifications,
        })
        .where('id', '=', userId)
        .returning([
          'login_notifications',
          'loginout_notifications',
          'marketing_notifications',
          'trade_notifications',
        ])
        .executeTakeFirst();
    },

    /**
     * The trades made in [from, to), summed per customer, side, coin and fiat, for customers
     * not yet sent the summary after `to`. A read of the trading module's rows, never a write.
     */
    async listDaySummaries(from: Date, to: Date): Promise<DaySummaryRow[]> {
      const rows = await db
        .selectFrom('trades')
        .select((eb) => [
          'trades.user_id',
          'trades.side',
          'trades.asset',
          'trades.fiat',
          eb.fn.countAll<string>().as('trades'),
          eb.fn.sum<string>('trades.quantity').as('quantity'),
          eb.fn.sum<string>('trades.total').as('total'),
        ])
        .where('trades.created_at', '>=', from)
        .where('trades.created_at', '<', to)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('notifications')
                .select('notifications.id')
                .whereRef('notifications.user_id', '=', 'trades.user_id')
                .where('notifications.event', '=', 'trading_daily_summary')
                .where('notifications.created_at', '>=', to),
            ),
          ),
        )
        .groupBy(['trades.user_id', 'trades.side', 'trades.asset', 'trades.fiat'])
        .orderBy('trades.user_id')
        .orderBy('trades.asset')
        .orderBy('trades.side')
        .execute();
      return rows.map((row) => ({
        ...row,
        trades: Number(row.trades),
        quantity: String(row.quantity),
        total: String(row.total),
      }));
    },

    async listRecipients(userIds: number[]): Promise<SummaryRecipient[]> {
      if (userIds.length === 0) return [];
      return db
        .selectFrom('users')
        .select([
          'id',
          'email',
          'first_name',
          'login_notifications',
          'loginout_notifications',
          'marketing_notifications',
          'trade_notifications',
        ])
        .where('id', 'in', userIds)
        .execute();
    },
  };
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
