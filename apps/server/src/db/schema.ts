/**
 * The database as Kysely sees it. The table types live in schema/, one file
 * per area; this file re-exports them all and names every table in DB.
 */
import { BLOCK_STATUS } from '@florin/domain';
import type {
  AccountsTable,
  AssetsTable,
  EntriesTable,
  HoldsTable,
  HouseBalanceDeltasTable,
  JournalsTable,
} from './schema/ledger.js';
import type { CandlesTable, CoinsTable, CurrenciesTable, FeeScheduleTable } from './schema/catalogue.js';
import type {
  AuditLogTable,
  StaffLoginChallengesTable,
  StaffPasswordTokensTable,
  StaffSessionsTable,
  StaffTable,
} from './schema/staff.js';
import type {
  ApiTokensTable,
  DevMailboxTable,
  EmailTokensTable,
  LoginChallengesTable,
  MailOutboxTable,
  NotificationsTable,
  RateLimitHitsTable,
  RecoveryCodesTable,
  SessionsTable,
  UsedCaptchasTable,
  UsersTable,
} from './schema/identity.js';
import type {
  CompaniesTable,
  CompanyDirectorsTable,
  KycAnswersTable,
  KycDocumentsTable,
} from './schema/kyc.js';
import type {
  BankAccountsTable,
  FiatBankSettingsTable,
  FiatDepositsTable,
  FiatWithdrawalsTable,
  WithdrawalCodesTable,
} from './schema/fiat.js';
import type {
  ChainCursorsTable,
  CryptoDepositsTable,
  CryptoWithdrawalsTable,
  DepositAddressCountersTable,
  DepositAddressesTable,
  SimulatedChainHeightsTable,
  SimulatedChainTransactionsTable,
  WhitelistedIpsTable,
  WhitelistedWalletsTable,
} from './schema/crypto.js';
import type {
  AutoTradeConversionsTable,
  AutoTradesTable,
  OrdersTable,
  PlatformUpgradesTable,
  TradeQuotesTable,
  TradesTable,
  TradingVolumesTable,
} from './schema/trading.js';
import type {
  AppSettingsTable,
  EnquiriesTable,
  MotdTable,
  NewsletterSubscribersTable,
} from './schema/site.js';
import type { TermDepositOptionsTable, TermDepositsTable } from './schema/savings.js';
import type {
  AffiliateClaimsTable,
  IncentivesPolicyTable,
  PromoCodesTable,
  PromoRedemptionsTable,
  ReferralCommissionsTable,
  ReferralPartnersTable,
} from './schema/incentives.js';
import type {
  AssessmentAttemptsTable,
  InvestorEvidenceTable,
  InvestorProfilesTable,
} from './schema/investor.js';
import type {
  SanctionsHitsTable,
  SanctionsListEntriesTable,
  SanctionsListsTable,
  SanctionsScreeningsTable,
} from './schema/sanctions.js';

export type { Int8Id, Numeric, RowOf } from './schema/columns.js';
export type * from './schema/ledger.js';
export type * from './schema/catalogue.js';
export type * from './schema/staff.js';
export type * from './schema/identity.js';
export type * from './schema/kyc.js';
export type * from './schema/fiat.js';
export type * from './schema/crypto.js';
export type * from './schema/trading.js';
export type * from './schema/site.js';
export type * from './schema/savings.js';
export type * from './schema/incentives.js';
export type * from './schema/investor.js';
export type * from './schema/sanctions.js';

export type DB = {
  assets: AssetsTable;
  accounts: AccountsTable;
  journals: JournalsTable;
  entries: EntriesTable;
  holds: HoldsTable;
  house_balance_deltas: HouseBalanceDeltasTable;
  currencies: CurrenciesTable;
  coins: CoinsTable;
  fee_schedule: FeeScheduleTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  staff_login_challenges: StaffLoginChallengesTable;
  staff_password_tokens: StaffPasswordTokensTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  email_tokens: EmailTokensTable;
  recovery_codes: RecoveryCodesTable;
  rate_limit_hits: RateLimitHitsTable;
  used_captchas: UsedCaptchasTable;
  dev_mailbox: DevMailboxTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  kyc_answers: KycAnswersTable;
  companies: CompaniesTable;
  company_directors: CompanyDirectorsTable;
  kyc_documents: KycDocumentsTable;
  candles: CandlesTable;
  motd: MotdTable;
  bank_accounts: BankAccountsTable;
  fiat_bank_settings: FiatBankSettingsTable;
  fiat_deposits: FiatDepositsTable;
  fiat_withdrawals: FiatWithdrawalsTable;
  withdrawal_codes: WithdrawalCodesTable;
  deposit_address_counters: DepositAddressCountersTable;
  deposit_addresses: DepositAddressesTable;
  crypto_deposits: CryptoDepositsTable;
  chain_cursors: ChainCursorsTable;
  simulated_chain_heights: SimulatedChainHeightsTable;
  simulated_chain_transactions: SimulatedChainTransactionsTable;
  whitelisted_wallets: WhitelistedWalletsTable;
  whitelisted_ips: WhitelistedIpsTable;
  crypto_withdrawals: CryptoWithdrawalsTable;
  trade_quotes: TradeQuotesTable;
  orders: OrdersTable;
  trades: TradesTable;
  trading_volumes: TradingVolumesTable;
  platform_upgrades: PlatformUpgradesTable;
  app_settings: AppSettingsTable;
  api_tokens: ApiTokensTable;
  term_deposit_options: TermDepositOptionsTable;
  term_deposits: TermDepositsTable;
  auto_trades: AutoTradesTable;
  auto_trade_conversions: AutoTradeConversionsTable;
  incentives_policy: IncentivesPolicyTable;
  referral_partners: ReferralPartnersTable;
  referral_commissions: ReferralCommissionsTable;
  affiliate_claims: AffiliateClaimsTable;
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  enquiries: EnquiriesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  investor_profiles: InvestorProfilesTable;
  assessment_attempts: AssessmentAttemptsTable;
  investor_evidence: InvestorEvidenceTable;
  sanctions_lists: SanctionsListsTable;
  sanctions_list_entries: SanctionsListEntriesTable;
  sanctions_screenings: SanctionsScreeningsTable;
  sanctions_hits: SanctionsHitsTable;
};

/** users.block_status of an account compliance put on hold: no money leaves it, nothing is bought. */
export const ON_HOLD = BLOCK_STATUS.onHold;
