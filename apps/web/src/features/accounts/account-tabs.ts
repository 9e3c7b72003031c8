import { ACCOUNT_TEXTS } from '@florin/contracts';
import type { ResponsiveTabEntry } from '../../components/responsive-tabs';

export const ACCOUNT_TABS = {
  details: 'details',
  referrals: 'referrals',
  promo: 'promo',
  alerts: 'alerts',
  api: 'api',
  tier: 'tier',
  autoTrade: 'auto-trade',
} as const;
export type AccountTab = (typeof ACCOUNT_TABS)[keyof typeof ACCOUNT_TABS];

/** Spec 002 §2.2, in this order. */
export const ACCOUNT_TAB_ENTRIES: readonly ResponsiveTabEntry<AccountTab>[] = [
  { value: ACCOUNT_TABS.details, label: ACCOUNT_TEXTS.detailsTab, isAvailable: true },
  { value: ACCOUNT_TABS.referrals, label: ACCOUNT_TEXTS.referralsTab, isAvailable: true },
  { value: ACCOUNT_TABS.promo, label: ACCOUNT_TEXTS.promoTab, isAvailable: true },
  { value: ACCOUNT_TABS.alerts, label: ACCOUNT_TEXTS.alertsTab, isAvailable: true },
  { value: ACCOUNT_TABS.api, label: ACCOUNT_TEXTS.apiTab, isAvailable: true },
  { value: ACCOUNT_TABS.tier, label: ACCOUNT_TEXTS.tierTab, isAvailable: true },
  { value: ACCOUNT_TABS.autoTrade, label: ACCOUNT_TEXTS.autoTradeTab, isAvailable: true },
];
