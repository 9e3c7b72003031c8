/**
 * Every screen of the back office, re-exported from one module so that the
 * routes (routes.tsx) load the whole back office as one lazily loaded chunk,
 * never part of what a customer downloads.
 */
export { AdminLayout } from './admin-layout';
export { AdminHome } from './admin-home';
export { AdminLoginPage } from './login-page';
export { AdminSetPasswordPage } from './set-password-page';
export { StaffPage } from './staff-page';
export { AuditLogPage } from './audit-log-page';
export { MotdPage } from './motd/motd-page';
export { BankTransfersPage } from './fiat/bank-transfers-page';
export { PayoutsPage } from './fiat/payouts-page';
export { DepositDetailsPage } from './fiat/deposit-details-page';
export { CryptoWithdrawalsPage } from './crypto/withdrawals-page';
export { CryptoDepositsPage } from './crypto/deposits-page';
export { CryptoWithdrawalSettingsPage } from './crypto/withdrawal-settings-page';
export { TradingSettingsPage } from './trading/trading-settings-page';
export { UpgradesPage } from './upgrades/upgrades-page';
export { TermDepositsPage } from './term-deposits/term-deposits-page';
export { IncentivesPage } from './referrals/incentives-page';
export { ReferralClaimsPage } from './referrals/claims-page';
export { NewsletterPage } from './newsletter/newsletter-page';
export { EnquiriesPage } from './enquiries/enquiries-page';
export { FailedMailPage } from './mail/failed-mail-page';
export { SanctionsPage } from './sanctions/sanctions-page';
export { ReportsPage } from './reports/reports-page';
export { SystemPage } from './system/system-page';
export { ComplianceQueuePage as CompliancePage } from './compliance/compliance-queue-page';
export { ComplianceCasePage } from './compliance/compliance-case-page';
export { CustomersPage } from './customers/customers-page';
export { CustomerPage } from './customers/customer-page';
export { AdminNotFound } from './components/admin-not-found';
export { AdminErrorBoundary } from './components/admin-error-boundary';
