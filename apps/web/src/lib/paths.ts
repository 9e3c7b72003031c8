/** Every fixed address the web app links to, so a renamed page changes in one place. */
export const PATHS = {
  root: '/',
  home: '/home',
  login: '/login',
  register: '/register',
  verify: '/verify',
  forgotPassword: '/forgot-password',
  passwordReset: '/password-reset',
  riskSummary: '/risk-summary',
  terms: '/terms',
  privacy: '/privacy',
  gdpr: '/GDPR',
  cookies: '/cookie',
  fees: '/fees',
  jurisdictions: '/Locations',
  about: '/about-us',
  contact: '/contact-us',
  livePrices: '/live-crypto-prices',
  learnCrypto: '/LearnCrypto',
  cryptoBusiness: '/CryptoBusiness.html',
  dashboard: '/user',
  trade: '/user/trade',
  wallets: '/user/wallets',
  accounts: '/user/accounts',
  settings: '/user/settings',
  termDeposits: '/user/term-deposit',
  tax: '/user/tax',
  invest: '/user/invest',
  withdrawDeposit: '/user/withdraw-deposit',
} as const;

/**
 * The navigation state the dashboard's Deposit, Withdraw and Wallets buttons
 * pass (spec 000 section 2): the asset to preselect, by its key (`GBP`, `btc`) and kind.
 */
export type AssetNavigationState = { name: string; type: 'fiat' | 'coin' };

/** `/user/withdraw-deposit?deposit` or `?withdraw`: the tab to open (spec 001 section 2). */
export function withdrawDepositPath(tab: 'deposit' | 'withdraw'): string {
  return `${PATHS.withdrawDeposit}?${tab}`;
}

/** The trade screen opened on one side of one coin (DECISIONS.md, Routes). */
export function tradePath(side: 'buy' | 'sell', coinId: string): string {
  return `${PATHS.trade}?side=${side}&coin=${encodeURIComponent(coinId)}`;
}

/** The tabs of the Settings page, as `?tab=` names them. */
export const SETTINGS_TABS = {
  password: 'password',
  twoFactor: '2fa',
  ipWhitelist: 'ip',
  walletWhitelist: 'wallet',
} as const;
export type SettingsTab = (typeof SETTINGS_TABS)[keyof typeof SETTINGS_TABS];

export function settingsTabPath(tab: SettingsTab): string {
  return `${PATHS.settings}?tab=${tab}`;
}

/** The legal pages every public page's footer lists, in this order. */
export const LEGAL_LINKS = [
  { label: 'Terms', to: PATHS.terms },
  { label: 'Privacy', to: PATHS.privacy },
  { label: 'GDPR', to: PATHS.gdpr },
  { label: 'Cookies', to: PATHS.cookies },
  { label: 'Fees', to: PATHS.fees },
  { label: 'Jurisdictions', to: PATHS.jurisdictions },
] as const;

/** The public site's navigation (spec 002 §2.1), in this order; external guide and blog links come from configuration. */
export const PUBLIC_NAV_LINKS = [
  { label: 'Live prices', to: PATHS.livePrices },
  { label: 'Learn crypto', to: PATHS.learnCrypto },
  { label: 'For business', to: PATHS.cryptoBusiness },
  { label: 'Contact', to: PATHS.contact },
] as const;

/** The signed-in navigation (spec 000 section 2), in this order; shown only to an active account. */
export const ACCOUNT_NAV_LINKS = [
  { label: 'Dashboard', to: PATHS.dashboard },
  { label: 'Trade', to: PATHS.trade },
  { label: 'Wallets', to: PATHS.wallets },
  { label: 'Account', to: PATHS.accounts },
  { label: 'Settings', to: PATHS.settings },
  { label: 'Term Deposits', to: PATHS.termDeposits },
] as const;
