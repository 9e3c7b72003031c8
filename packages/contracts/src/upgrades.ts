import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * Upgrade to Trade (issue 9, spec 002 §2.2 and §4): an instant customer
 * (platform 1) moves to the trading platform (2) with PUT
 * /api/v1/users/account_type { account_type: 'Trade', … } (kyc.ts). Staff see
 * every upgrade in the back office and, when a superadmin has set one, a chat
 * webhook is told (the spec's "notifies the internal team").
 */

export const UPGRADE_TEXTS = {
  upgradeButton: 'Upgrade to Trade',
  modalTitle: 'Upgrade to Trade',
  modalIntro: 'A trading account gives you:',
  /**
   * The spec's features but its "Fees starting at 0.35%": that figure is the fee schedule's, which finance
   * keeps in the back office, so the modal writes it from the schedule, at `feesFeatureAt` in this list.
   */
  features: [
    'Multiple trading pairs',
    'Tight spreads',
    'Market and limit orders',
    'Advanced charting',
    'Portfolio management',
  ],
  feesFeatureAt: 2,
  confirm: 'Upgrade Now',
  cancel: 'Cancel',
  completeTitle: 'Upgrade Complete!',
  completeText: 'Your account is now a trading account. Please log out and sign in again to start trading.',
  logOut: 'Log Out',
  /** Spec 002 §8: "Upgrade: 500 generic; otherwise Information Missing". */
  errorTitle: 'Information Missing',
  /** Back office. */
  webhookSaved: 'Webhook saved. New upgrades are posted to it.',
  webhookCleared: 'Webhook removed. Upgrades are only listed here.',
  webhookInvalid: 'Enter a full web address such as https://chat.example.com/hooks/…',
  webhookHttpsOnly: 'The webhook must use https.',
  webhookMessage: 'upgraded to a trading account',
} as const;

/** The Account page's details tab (spec 002 §2.2). */
export const ACCOUNT_TEXTS = {
  pageTitle: 'Account',
  detailsTab: 'Account Details',
  referralsTab: 'Referrals',
  promoTab: 'Promo',
  alertsTab: 'Alerts',
  apiTab: 'API',
  tierTab: 'Tier',
  autoTradeTab: 'Auto Trade',
  unavailable: 'Available soon',
  firstName: 'First Name',
  lastName: 'Last Name',
  address: 'Address',
  city: 'City',
  postcode: 'Postcode',
  country: 'Country',
  phone: 'Phone',
  birthday: 'Birthday',
  email: 'Email',
  companyCountry: 'Company Country',
  companyAddress: 'Company Address',
  companyCity: 'Company City',
  companyZip: 'Company Zip',
  tradingAccount: 'You have a trading account.',
  // ours (DECISIONS.md: a live customer may change phone and address)
  changeDetails: 'Change address or phone',
  changeDetailsTitle: 'Change your address or phone',
  addressChangeWarning:
    'A new address needs a new proof of address, dated within the last 3 months. After saving you will be asked to upload it; until you have, your money cannot move (no trades, deposits or withdrawals).',
  saveDetails: 'Save details',
  detailsSaved: 'Your details are saved.',
} as const;

export const PLATFORM_UPGRADE_WEBHOOK_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export const PlatformUpgradeWebhookStatusSchema = z.enum(PLATFORM_UPGRADE_WEBHOOK_STATUSES);
export type PlatformUpgradeWebhookStatus = z.infer<typeof PlatformUpgradeWebhookStatusSchema>;

export const PlatformUpgradeSchema = z.object({
  id: z.number().int(),
  user: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
  }),
  from_platform: z.number().int(),
  to_platform: z.number().int(),
  created_at: z.string(),
  /** skipped: no webhook was set when the upgrade happened. */
  webhook_status: PlatformUpgradeWebhookStatusSchema,
  webhook_attempts: z.number().int(),
  webhook_error: z.string().nullable(),
  webhook_at: z.string().nullable(),
});
export type PlatformUpgrade = z.infer<typeof PlatformUpgradeSchema>;

export const UPGRADES_PAGE_SIZE = 25;

export const PlatformUpgradesQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(UPGRADES_PAGE_SIZE),
});
export type PlatformUpgradesQuery = z.infer<typeof PlatformUpgradesQuerySchema>;

export const listPlatformUpgrades = defineEndpoint({
  method: 'GET',
  path: '/api/admin/upgrades',
  summary: 'Upgrades to the trading platform, newest first, with the webhook delivery (support, finance)',
  query: PlatformUpgradesQuerySchema,
  responses: {
    200: z.object({
      data: z.array(PlatformUpgradeSchema),
      total: z.number().int(),
      skip: z.number().int(),
      take: z.number().int(),
    }),
  },
});

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const WebhookSchema = z.object({ url: z.string().nullable() });

export const getUpgradeWebhook = defineEndpoint({
  method: 'GET',
  path: '/api/admin/upgrades/webhook',
  summary: 'The chat webhook upgrades are posted to (superadmin)',
  responses: { 200: z.object({ data: WebhookSchema }) },
});

/** An http(s) address, or null (or empty) for none; production also requires https (the server checks). */
export const UpgradeWebhookBodySchema = z.strictObject({
  url: z
    .string({ error: UPGRADE_TEXTS.webhookInvalid })
    .trim()
    .max(2000, UPGRADE_TEXTS.webhookInvalid)
    .refine((value) => value === '' || isWebAddress(value), UPGRADE_TEXTS.webhookInvalid)
    .nullable()
    .transform((value) => (value === '' || value === null ? null : value)),
});
export type UpgradeWebhookBody = z.input<typeof UpgradeWebhookBodySchema>;

export const setUpgradeWebhook = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/upgrades/webhook',
  summary: 'Set or remove the chat webhook upgrades are posted to (superadmin; audited)',
  body: UpgradeWebhookBodySchema,
  responses: { 200: z.object({ data: WebhookSchema, message: z.string() }) },
});

/** What the webhook receives, one POST per upgrade. */
export type UpgradeWebhookPayload = { text: string; user_id: number; email: string; at: string };
