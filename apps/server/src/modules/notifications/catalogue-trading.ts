import { entry } from './shared.js';

/** Trades: each one's confirmation, and the day's summary the Alerts switch can hold back. */
export const TRADING_NOTIFICATIONS = {
  trade_executed: entry<{
    firstName: string;
    side: 'buy' | 'sell';
    quantity: string;
    asset: string;
    price: string;
    fiat: string;
    total: string;
  }>({
    render: ({ firstName, side, quantity, asset, price, fiat, total }) => ({
      subject: side === 'buy' ? `You bought ${asset}` : `You sold ${asset}`,
      paragraphs: [
        `Hello ${firstName},`,
        side === 'buy'
          ? `You bought ${quantity} ${asset} at ${price} ${fiat} each and paid ${total} ${fiat}, fee included.`
          : `You sold ${quantity} ${asset} at ${price} ${fiat} each and received ${total} ${fiat} after the fee.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  /** The day's trades in one mail; each trade's own confirmation (trade_executed) always goes. */
  trading_daily_summary: entry<{
    firstName: string;
    day: string;
    trades: number;
    lines: string[];
    url: string;
  }>({
    optional: 'trade_notifications',
    render: ({ firstName, day, trades, lines, url }) => ({
      subject: `Your trading summary for ${day}`,
      paragraphs: [
        `Hello ${firstName},`,
        `On ${day} you made ${trades} ${trades === 1 ? 'trade' : 'trades'}:`,
        ...lines,
        'You receive this because trading notifications are on. Switch them off under Account, Alerts.',
      ],
      action: { label: 'See your history', url },
    }),
  }),
} as const;
