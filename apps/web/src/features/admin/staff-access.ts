import { CARF_REPORT_ROLES, type AdminMe, type StaffRole } from '@florin/contracts';
import { useOutletContext } from 'react-router';
import { ADMIN_PATHS } from './admin-paths';

/**
 * Which roles may open a screen, as the server's route access says it
 * (undefined: every staff member). A superadmin may open everything. The
 * server decides; this only keeps screens out of sight that would answer 404.
 */
export type ScreenRoles = readonly StaffRole[] | undefined;

export function mayOpen(role: StaffRole, roles: ScreenRoles): boolean {
  return role === 'superadmin' || roles === undefined || roles.includes(role);
}

export type AdminNavLink = { label: string; to: string; roles: ScreenRoles };

/** The message of the day screen: support writes the notices customers see (issue 6). */
export const MOTD_SCREEN_ROLES: ScreenRoles = ['support'];

/** The fiat money screens: finance records transfers and pays withdrawals (issue 7). */
export const FIAT_SCREEN_ROLES: ScreenRoles = ['finance'];

/** The crypto payout screens: finance approves, sends and confirms crypto withdrawals (issue 8). */
export const CRYPTO_SCREEN_ROLES: ScreenRoles = ['finance'];

/** Coins, fiat withdrawal settings, fee plans and the house's position: finance (issue 9). */
export const TRADING_SCREEN_ROLES: ScreenRoles = ['finance'];

/** Upgrades to the trading platform: support answers the customers, finance watches the accounts (issue 9). */
export const UPGRADES_SCREEN_ROLES: ScreenRoles = ['support', 'finance'];

/** The terms offered for term deposits: finance (issue 11). */
export const TERM_DEPOSITS_SCREEN_ROLES: ScreenRoles = ['finance'];

/** The incentives policy, partner links and promo codes: a superadmin's (issue 10). */
export const INCENTIVES_SCREEN_ROLES: ScreenRoles = [];

/** Referral earnings claims: finance pays them (issue 10). */
export const REFERRAL_CLAIMS_SCREEN_ROLES: ScreenRoles = ['finance'];

/** The newsletter's subscribers and their export: support answers visitors about the list (issue 12). */
export const NEWSLETTER_SCREEN_ROLES: ScreenRoles = ['support'];

/** Product enquiries from the contact page: support answers them (issue 12). */
export const ENQUIRIES_SCREEN_ROLES: ScreenRoles = ['support'];

/** E-mails that failed every attempt: support sends them again for customers who ask (issue 42). */
export const FAILED_MAIL_SCREEN_ROLES: ScreenRoles = ['support'];

/** Sanctions screening: compliance imports the list and reviews the hits (issue 13). */
export const SANCTIONS_SCREEN_ROLES: ScreenRoles = ['compliance'];

/** Regulatory reports, HMRC's CARF data first: compliance answers for them, finance checks the figures (issue 13). */
export const REPORTS_SCREEN_ROLES: ScreenRoles = CARF_REPORT_ROLES;

/** The back office's navigation, in this order. */
export const ADMIN_NAV_LINKS: readonly AdminNavLink[] = [
  { label: 'Compliance', to: ADMIN_PATHS.compliance, roles: ['compliance'] },
  { label: 'Sanctions', to: ADMIN_PATHS.sanctions, roles: SANCTIONS_SCREEN_ROLES },
  { label: 'Customers', to: ADMIN_PATHS.customers, roles: undefined },
  { label: 'Staff', to: ADMIN_PATHS.staff, roles: [] },
  { label: 'Audit log', to: ADMIN_PATHS.auditLog, roles: ['compliance'] },
  { label: 'Message of the day', to: ADMIN_PATHS.motd, roles: MOTD_SCREEN_ROLES },
  { label: 'Bank transfers', to: ADMIN_PATHS.bankTransfers, roles: FIAT_SCREEN_ROLES },
  { label: 'Payouts', to: ADMIN_PATHS.payouts, roles: FIAT_SCREEN_ROLES },
  { label: 'Deposit details', to: ADMIN_PATHS.depositDetails, roles: FIAT_SCREEN_ROLES },
  { label: 'Crypto payouts', to: ADMIN_PATHS.cryptoPayouts, roles: CRYPTO_SCREEN_ROLES },
  { label: 'Crypto deposits', to: ADMIN_PATHS.cryptoDeposits, roles: CRYPTO_SCREEN_ROLES },
  {
    label: 'Crypto withdrawal settings',
    to: ADMIN_PATHS.cryptoWithdrawalSettings,
    roles: CRYPTO_SCREEN_ROLES,
  },
  { label: 'Trading settings', to: ADMIN_PATHS.tradingSettings, roles: TRADING_SCREEN_ROLES },
  { label: 'Upgrades', to: ADMIN_PATHS.upgrades, roles: UPGRADES_SCREEN_ROLES },
  { label: 'Term deposits', to: ADMIN_PATHS.termDeposits, roles: TERM_DEPOSITS_SCREEN_ROLES },
  { label: 'Referrals and promo', to: ADMIN_PATHS.incentives, roles: INCENTIVES_SCREEN_ROLES },
  { label: 'Referral claims', to: ADMIN_PATHS.referralClaims, roles: REFERRAL_CLAIMS_SCREEN_ROLES },
  { label: 'Newsletter', to: ADMIN_PATHS.newsletter, roles: NEWSLETTER_SCREEN_ROLES },
  { label: 'Enquiries', to: ADMIN_PATHS.enquiries, roles: ENQUIRIES_SCREEN_ROLES },
  { label: 'Failed email', to: ADMIN_PATHS.failedMail, roles: FAILED_MAIL_SCREEN_ROLES },
  { label: 'Reports', to: ADMIN_PATHS.reports, roles: REPORTS_SCREEN_ROLES },
  // Every staff member sees which parts run on stand-ins and how the price feeds are (issue 44).
  { label: 'System', to: ADMIN_PATHS.system, roles: undefined },
];

/** Where /admin takes a staff member: the first screen of the navigation their role may open. */
export function homePathFor(role: StaffRole): string {
  return ADMIN_NAV_LINKS.find((link) => mayOpen(role, link.roles))?.to ?? ADMIN_PATHS.customers;
}

/** The signed-in staff member, for any screen inside the admin shell (it renders nothing until it is known). */
export function useSignedInStaff(): AdminMe {
  return useOutletContext<AdminMe>();
}
