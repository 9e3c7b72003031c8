import {
  searchCustomers,
  getCustomerLedger,
  type CustomerBalance,
  type CustomerProfile,
  type CustomerSession,
  type CustomerSummary,
  type LedgerLine,
  type Page,
} from '@florin/contracts';
import { formatAmount, isAssetCode, type AssetCode } from '@florin/domain';
import type { UserKind } from '../../ledger/index.js';
import { readPage } from '../../http/pages.js';
import { profileOf, requireCustomer, type CustomerAdminDeps } from './customer-admin-shared.js';

/** What staff read of a customer: the search, the profile, balances, ledger history and sessions. */
export function createCustomerReads(deps: CustomerAdminDeps) {
  const { db, repository, clock } = deps;
  return {
    async search(query: string | undefined, page: number): Promise<Page<CustomerSummary>> {
      const q = query || undefined;
      return readPage({
        page,
        path: searchCustomers.path,
        filters: { q },
        count: () => repository.countCustomers(q),
        list: (limit, offset) => repository.searchCustomers(q, limit, offset),
        toItem: (row): CustomerSummary => ({ ...row, created_at: row.created_at.toISOString() }),
      });
    },

    async getProfile(userId: number): Promise<CustomerProfile> {
      return profileOf(deps, await requireCustomer(deps, userId));
    },

    /** Each of the customer's ledger accounts, read through the ledger; term deposits summed per asset. */
    async balances(userId: number): Promise<CustomerBalance[]> {
      await requireCustomer(deps, userId);
      const accounts = await repository.listAccounts(userId);
      const totals = new Map<string, { asset: AssetCode; kind: string; posted: bigint; held: bigint }>();
      for (const account of accounts) {
        if (!isAssetCode(account.asset)) continue;
        const balance = await deps.ledger.getBalance(db, {
          asset: account.asset,
          kind: account.kind as UserKind,
          ownerUserId: String(userId),
          reference: account.reference || undefined,
        });
        const key = `${account.asset}:${account.kind}`;
        const total = totals.get(key) ?? { asset: account.asset, kind: account.kind, posted: 0n, held: 0n };
        total.posted += balance.posted;
        total.held += balance.held;
        totals.set(key, total);
      }
      return [...totals.values()].map((total) => ({
        asset: total.asset,
        kind: total.kind,
        posted: formatAmount(total.posted, total.asset),
        held: formatAmount(total.held, total.asset),
        available: formatAmount(total.posted - total.held, total.asset),
      }));
    },

    async ledgerHistory(userId: number, page: number): Promise<Page<LedgerLine>> {
      await requireCustomer(deps, userId);
      return readPage({
        page,
        path: getCustomerLedger.path.replace('{userId}', String(userId)),
        count: () => repository.countLedgerEntries(userId),
        list: (limit, offset) => repository.listLedgerEntries(userId, limit, offset),
        toItem: (row): LedgerLine => {
          const asset = row.asset as AssetCode;
          return {
            entry_id: row.entry_id,
            journal_id: row.journal_id,
            kind: row.kind,
            reference: row.reference,
            asset,
            account_kind: row.account_kind,
            amount: formatAmount(BigInt(row.amount), asset),
            balance_after: row.balance_after === null ? null : formatAmount(BigInt(row.balance_after), asset),
            created_at: row.created_at.toISOString(),
          };
        },
      });
    },

    async sessions(userId: number): Promise<CustomerSession[]> {
      await requireCustomer(deps, userId);
      const rows = await repository.listActiveSessions(userId, clock.now());
      return rows.map((row) => ({
        id: row.id,
        ip: row.ip,
        user_agent: row.user_agent,
        created_at: row.created_at.toISOString(),
        last_seen_at: row.last_seen_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      }));
    },
  };
}
