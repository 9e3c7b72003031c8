import type { Kysely } from 'kysely';
import type { DB } from './schema.js';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import * as ledger from './migrations/0001-ledger.js';
import * as referenceData from './migrations/0002-reference-data.js';
import * as staff from './migrations/0003-staff.js';
import * as identity from './migrations/0004-identity.js';
import * as ledgerPostFunction from './migrations/0005-ledger-post-function.js';
import * as kyc from './migrations/0006-kyc.js';
import * as backOffice from './migrations/0007-back-office.js';
import * as customerAdmin from './migrations/0008-customer-admin.js';
import * as market from './migrations/0009-market.js';
import * as portfolio from './migrations/0010-portfolio.js';
import * as fiat from './migrations/0011-fiat.js';
import * as crypto from './migrations/0012-crypto.js';
import * as cryptoOut from './migrations/0013-crypto-out.js';
import * as trading from './migrations/0014-trading.js';
import * as upgrades from './migrations/0015-upgrades.js';
import * as apiTokens from './migrations/0016-api-tokens.js';
import * as termDeposits from './migrations/0018-term-deposits.js';
import * as referralsPromo from './migrations/0019-referrals-promo.js';
import * as autoTrade from './migrations/0020-auto-trade.js';
import * as enquiries from './migrations/0021-enquiries.js';
import * as newsletter from './migrations/0022-newsletter.js';
import * as ukRules from './migrations/0023-uk-rules.js';
import * as sanctions from './migrations/0024-sanctions.js';
import * as knownAddresses from './migrations/0025-known-addresses.js';
import * as randomIds from './migrations/0026-random-ids.js';
import * as payoutFiles from './migrations/0027-payout-files.js';
import * as sanctionsConfirmed from './migrations/0028-sanctions-confirmed.js';
import * as feeSchedule from './migrations/0029-fee-schedule.js';
import * as sanctionsDelisted from './migrations/0030-sanctions-delisted.js';
import * as referralCommissionClosed from './migrations/0031-referral-commission-closed.js';
import * as entriesAccountAsset from './migrations/0032-entries-account-asset.js';
import * as tradesByJournal from './migrations/0033-trades-by-journal.js';
import * as mailOutbox from './migrations/0034-mail-outbox.js';
import * as tradingVolumes from './migrations/0035-trading-volumes.js';
import * as automaticPayouts from './migrations/0036-automatic-payouts.js';
import * as payerAccounts from './migrations/0037-payer-accounts.js';
import * as cacheNotify from './migrations/0038-cache-notify.js';
import * as fillRows from './migrations/0039-fill-rows.js';
import * as entriesAccountJournalAmount from './migrations/0040-entries-account-journal-amount.js';

/** Listed by hand, not read from the folder, so the order is reviewed and nothing loads by accident. */
const migrations: Record<string, Migration> = {
  '0001-ledger': ledger,
  '0002-reference-data': referenceData,
  '0003-staff': staff,
  '0004-identity': identity,
  '0005-ledger-post-function': ledgerPostFunction,
  '0006-kyc': kyc,
  '0007-back-office': backOffice,
  '0008-customer-admin': customerAdmin,
  '0009-market': market,
  '0010-portfolio': portfolio,
  '0011-fiat': fiat,
  '0012-crypto': crypto,
  '0013-crypto-out': cryptoOut,
  '0014-trading': trading,
  '0015-upgrades': upgrades,
  '0016-api-tokens': apiTokens,
  '0018-term-deposits': termDeposits,
  '0019-referrals-promo': referralsPromo,
  '0020-auto-trade': autoTrade,
  '0021-enquiries': enquiries,
  '0022-newsletter': newsletter,
  '0023-uk-rules': ukRules,
  '0024-sanctions': sanctions,
  '0025-known-addresses': knownAddresses,
  '0026-random-ids': randomIds,
  '0027-payout-files': payoutFiles,
  '0028-sanctions-confirmed': sanctionsConfirmed,
  '0029-fee-schedule': feeSchedule,
  '0030-sanctions-delisted': sanctionsDelisted,
  '0031-referral-commission-closed': referralCommissionClosed,
  '0032-entries-account-asset': entriesAccountAsset,
  '0033-trades-by-journal': tradesByJournal,
  '0034-mail-outbox': mailOutbox,
  '0035-trading-volumes': tradingVolumes,
  '0036-automatic-payouts': automaticPayouts,
  '0037-payer-accounts': payerAccounts,
  '0038-cache-notify': cacheNotify,
  '0039-fill-rows': fillRows,
  '0040-entries-account-journal-amount': entriesAccountJournalAmount,
};

export async function migrateToLatest(database: Kysely<DB>): Promise<void> {
  await migrate(database, (migrator) => migrator.migrateToLatest());
}

/** Stops after the named migration: a test builds the database a later migration finds in production. */
export async function migrateUpTo(database: Kysely<DB>, name: keyof typeof migrations): Promise<void> {
  await migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  database: Kysely<DB>,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  // Migrations are written against no schema at all: each sees the database as it finds it.
  const db = database as unknown as Kysely<unknown>;
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results } = await run(migrator);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
