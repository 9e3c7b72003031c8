import { ALERTS_TEXTS, AppError, type NotificationFlags } from '@florin/contracts';
import { formatAmount, isAssetCode } from '@florin/domain';
import type { Notifier } from '../notifications/service.js';
import type { AlertsRepository, DaySummaryRow } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often the leading instance looks for yesterday's unsent summaries: within an hour of midnight. */
export const DAILY_SUMMARY_INTERVAL_MS = 60 * 60 * 1000;

export type AlertsServiceDeps = {
  repository: AlertsRepository;
  notifier: Notifier;
  publicUrl: string;
};

function amount(units: string, asset: string): string {
  return isAssetCode(asset) ? formatAmount(BigInt(units), asset) : units;
}

function lineOf(row: DaySummaryRow): string {
  const count = `${row.trades} ${row.trades === 1 ? 'trade' : 'trades'}`;
  return row.side === 'buy'
    ? `Bought ${amount(row.quantity, row.asset)} ${row.asset} for ${amount(row.total, row.fiat)} ${row.fiat}, fee included (${count}).`
    : `Sold ${amount(row.quantity, row.asset)} ${row.asset} for ${amount(row.total, row.fiat)} ${row.fiat} after the fee (${count}).`;
}

/** The UTC calendar day that `at` falls in, as its midnight. */
export function dayOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function createAlertsService(deps: AlertsServiceDeps) {
  const { repository, notifier } = deps;

  return {
    /** Saves the four switches together; another customer's id reads as not found. */
    async updateNotifications(
      userId: number,
      targetId: number,
      flags: NotificationFlags,
    ): Promise<{ message: string; data: NotificationFlags }> {
      if (userId !== targetId) throw new AppError('NOT_FOUND');
      const saved = await repository.updateFlags(userId, flags);
      if (!saved) throw new AppError('NOT_FOUND');
      return { message: ALERTS_TEXTS.updated, data: saved };
    },

    /**
     * Mails each customer who traded on the UTC day starting at `day` one summary of it, once;
     * the notifier leaves out those whose trading notifications are off. Returns how many traded.
     */
    async sendDailyTradingSummaries(day: Date): Promise<number> {
      const from = dayOf(day);
      const to = new Date(from.getTime() + DAY_MS);
      const rows = await repository.listDaySummaries(from, to);
      const byUser = new Map<number, DaySummaryRow[]>();
      for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
      const recipients = await repository.listRecipients([...byUser.keys()]);
      const label = from.toISOString().slice(0, 10);
      for (const recipient of recipients) {
        const lines = byUser.get(recipient.id) ?? [];
        await notifier.notify(recipient, 'trading_daily_summary', {
          firstName: recipient.first_name,
          day: label,
          trades: lines.reduce((sum, row) => sum + row.trades, 0),
          lines: lines.map(lineOf),
          url: `${deps.publicUrl}/user/wallets`,
        });
      }
      return recipients.length;
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
