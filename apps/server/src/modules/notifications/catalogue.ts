import { ACCOUNT_NOTIFICATIONS } from './catalogue-account.js';
import { BACK_OFFICE_NOTIFICATIONS } from './catalogue-back-office.js';
import { DEPOSIT_NOTIFICATIONS } from './catalogue-deposits.js';
import { MARKETING_NOTIFICATIONS } from './catalogue-marketing.js';
import { TRADING_NOTIFICATIONS } from './catalogue-trading.js';
import { WITHDRAWAL_NOTIFICATIONS } from './catalogue-withdrawals.js';

export type { Rendered } from './shared.js';

/**
 * Every e-mail Florin sends a customer, in one place. Features emit events;
 * this decides the words. `optional` ones obey the customer's Alerts switches
 * (DECISIONS.md: login, logout, marketing, daily summary); the rest always go.
 */
export const NOTIFICATIONS = {
  ...ACCOUNT_NOTIFICATIONS,
  ...BACK_OFFICE_NOTIFICATIONS,
  ...DEPOSIT_NOTIFICATIONS,
  ...WITHDRAWAL_NOTIFICATIONS,
  ...TRADING_NOTIFICATIONS,
  ...MARKETING_NOTIFICATIONS,
} as const;

export type NotificationEvent = keyof typeof NOTIFICATIONS;
export type NotificationData<E extends NotificationEvent> = Parameters<
  (typeof NOTIFICATIONS)[E]['render']
>[0];
