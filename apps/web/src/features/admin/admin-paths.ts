/** Every address of the back office, so a renamed screen changes in one place. */
export const ADMIN_PATHS = {
  root: '/admin',
  login: '/admin/login',
  setPassword: '/admin/set-password',
  compliance: '/admin/compliance',
  customers: '/admin/customers',
  staff: '/admin/staff',
  auditLog: '/admin/audit-log',
  motd: '/admin/motd',
  bankTransfers: '/admin/bank-transfers',
  payouts: '/admin/payouts',
  depositDetails: '/admin/deposit-details',
  cryptoPayouts: '/admin/crypto-payouts',
  cryptoDeposits: '/admin/crypto-deposits',
  cryptoWithdrawalSettings: '/admin/crypto-withdrawal-settings',
  tradingSettings: '/admin/trading-settings',
  upgrades: '/admin/upgrades',
  termDeposits: '/admin/term-deposits',
  incentives: '/admin/referrals',
  referralClaims: '/admin/referral-claims',
  newsletter: '/admin/newsletter',
  enquiries: '/admin/enquiries',
  failedMail: '/admin/failed-mail',
  sanctions: '/admin/sanctions',
  reports: '/admin/reports',
  system: '/admin/system',
} as const;

export function complianceCasePath(userId: number | string): string {
  return `${ADMIN_PATHS.compliance}/${userId}`;
}

export function customerPath(userId: number | string): string {
  return `${ADMIN_PATHS.customers}/${userId}`;
}
