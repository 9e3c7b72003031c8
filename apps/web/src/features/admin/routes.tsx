import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type * as AdminPagesModule from './admin-pages';

type AdminPages = typeof AdminPagesModule;

/**
 * A back-office screen: its component and error boundary come from the one
 * admin chunk, loaded the first time any /admin address is opened.
 */
function screen(pick: (pages: AdminPages) => ComponentType): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const pages = await import('./admin-pages');
      return { Component: pick(pages), ErrorBoundary: pages.AdminErrorBoundary };
    },
  };
}

/**
 * The back office under /admin, its own shell and its own sign-in. Only this
 * small table is in the main bundle. New back-office screens are added here.
 */
export const adminRoute: RouteObject = {
  path: 'admin',
  children: [
    { path: 'login', ...screen((pages) => pages.AdminLoginPage) },
    { path: 'set-password', ...screen((pages) => pages.AdminSetPasswordPage) },
    {
      ...screen((pages) => pages.AdminLayout),
      children: [
        { index: true, ...screen((pages) => pages.AdminHome) },
        { path: 'compliance', ...screen((pages) => pages.CompliancePage) },
        { path: 'compliance/:userId', ...screen((pages) => pages.ComplianceCasePage) },
        { path: 'customers', ...screen((pages) => pages.CustomersPage) },
        { path: 'customers/:userId', ...screen((pages) => pages.CustomerPage) },
        { path: 'staff', ...screen((pages) => pages.StaffPage) },
        { path: 'audit-log', ...screen((pages) => pages.AuditLogPage) },
        { path: 'motd', ...screen((pages) => pages.MotdPage) },
        { path: 'bank-transfers', ...screen((pages) => pages.BankTransfersPage) },
        { path: 'payouts', ...screen((pages) => pages.PayoutsPage) },
        { path: 'deposit-details', ...screen((pages) => pages.DepositDetailsPage) },
        { path: 'crypto-payouts', ...screen((pages) => pages.CryptoWithdrawalsPage) },
        { path: 'crypto-deposits', ...screen((pages) => pages.CryptoDepositsPage) },
        {
          path: 'crypto-withdrawal-settings',
          ...screen((pages) => pages.CryptoWithdrawalSettingsPage),
        },
        { path: 'trading-settings', ...screen((pages) => pages.TradingSettingsPage) },
        { path: 'upgrades', ...screen((pages) => pages.UpgradesPage) },
        { path: 'term-deposits', ...screen((pages) => pages.TermDepositsPage) },
        { path: 'referrals', ...screen((pages) => pages.IncentivesPage) },
        { path: 'referral-claims', ...screen((pages) => pages.ReferralClaimsPage) },
        { path: 'newsletter', ...screen((pages) => pages.NewsletterPage) },
        { path: 'enquiries', ...screen((pages) => pages.EnquiriesPage) },
        { path: 'failed-mail', ...screen((pages) => pages.FailedMailPage) },
        { path: 'sanctions', ...screen((pages) => pages.SanctionsPage) },
        { path: 'reports', ...screen((pages) => pages.ReportsPage) },
        { path: 'system', ...screen((pages) => pages.SystemPage) },
        { path: '*', ...screen((pages) => pages.AdminNotFound) },
      ],
    },
  ],
};
