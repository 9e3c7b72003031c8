import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * The Account page's Alerts tab (spec 002 §2.2, §4, §7, §8; DECISIONS.md
 * "Notifications"): four switches saved together on every toggle, each
 * controlling one kind of e-mail; the compulsory alerts are listed and always sent.
 */

export const ALERTS_TEXTS = {
  intro: 'Choose which e-mails you receive. Every change is saved at once.',
  login: 'Login notifications',
  loginHint: 'An e-mail each time your account is signed in to.',
  logout: 'Logout notifications',
  logoutHint: 'An e-mail each time you sign out.',
  marketing: 'Marketing notifications',
  marketingHint: 'News about Florin products and offers.',
  trading: 'Trading notifications',
  tradingHint: 'A daily summary of the trades you made. Each trade’s own confirmation is always sent.',
  saving: 'Saving',
  successTitle: 'Success',
  /** Spec 002 §8: the success toast. */
  updated: 'Notification successfully updated.',
  compulsoryTitle: 'Always sent',
  compulsoryIntro:
    'For your security and our records, these e-mails are always sent and cannot be switched off:',
  /** Spec 002 §2.2 and DECISIONS.md "Notifications". */
  compulsory: [
    'Two-factor authentication enabled or disabled',
    'Password or e-mail address changed, recovery code used',
    'Bank account added or changed',
    'Money deposited or withdrawn (requested, sent or rejected)',
    'Trading transactions: every trade executed',
    'IP addresses or crypto wallets whitelisted or removed',
    'Term deposit matured',
    'Account put on hold or terminated',
  ],
} as const;

/** The four switches as the user object and the PUT carry them. */
export const NotificationFlagsSchema = z.object({
  login_notifications: z.boolean(),
  loginout_notifications: z.boolean(),
  marketing_notifications: z.boolean(),
  trade_notifications: z.boolean(),
});
export type NotificationFlags = z.infer<typeof NotificationFlagsSchema>;

export const NOTIFICATION_FLAGS = [
  'login_notifications',
  'loginout_notifications',
  'marketing_notifications',
  'trade_notifications',
] as const satisfies readonly (keyof NotificationFlags)[];

/**
 * All four flags at once (a partial update would let two quick toggles undo
 * each other). `settings` is the spec's "settings flag": the original client
 * marks a change made from the Alerts tab with it; accepted, it changes nothing.
 */
export const UpdateNotificationsBodySchema = z.strictObject({
  ...NotificationFlagsSchema.shape,
  settings: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
});
export type UpdateNotificationsBody = z.infer<typeof UpdateNotificationsBodySchema>;

export const updateNotifications = defineEndpoint({
  method: 'PUT',
  path: '/api/v1/users/{id}/notifications',
  summary: "Saves the customer's four Alerts switches together (only their own id; another is 404)",
  params: z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
  body: UpdateNotificationsBodySchema,
  responses: { 200: z.object({ message: z.string(), data: NotificationFlagsSchema }) },
});
