import { Readable } from 'node:stream';
import {
  HISTORY_CSV_COLUMNS,
  HISTORY_PAGE_SIZE,
  listHistory,
  type HistoryFilter,
  type HistoryPage,
  type PendingTransactions,
} from '@florin/contracts';
import { csvLine } from '../../http/csv.js';
import { readPage } from '../../http/pages.js';
import { assetOfCoinId, readAssetInfo, type AssetInfo } from './asset-info.js';
import type { HistoryScope, PortfolioRepository } from './repository.js';
import { toPendingTransaction, toTransaction } from './transactions.js';

/** Journals read per batch of the export: big enough to amortise the round trip, small enough to keep memory flat. */
const EXPORT_BATCH = 1000;

/** The customer's transaction history: the pages, the withdrawals still pending, the CSV export. */
export function createPortfolioHistory(deps: { repository: PortfolioRepository }) {
  const { repository } = deps;

  async function scopeOf(
    userId: string,
    filters: readonly HistoryFilter[],
    coinId: string | undefined,
    assets: Map<string, AssetInfo>,
  ): Promise<HistoryScope> {
    const asset = assetOfCoinId(coinId, assets);
    const accounts = await repository.listUserAccounts(userId, asset);
    const assetKinds = new Map([...assets.values()].map((info) => [info.code, info.kind]));
    return { accounts, filters: [...new Set(filters)], assetKinds };
  }

  return {
    async history(
      userId: string,
      query: { page: number; filter: HistoryFilter[]; coinId?: string },
      path: string = listHistory.path,
    ): Promise<HistoryPage> {
      const assets = await readAssetInfo(repository);
      const scope = await scopeOf(userId, query.filter, query.coinId, assets);
      return readPage({
        page: query.page,
        path,
        perPage: HISTORY_PAGE_SIZE,
        filters: { 'filter[]': query.filter, coin_id: query.coinId },
        count: () => repository.countJournals(scope),
        list: (limit, offset) => repository.listJournals(userId, scope, { limit, offset }),
        toItem: (journal) => toTransaction(journal, assets),
      });
    },

    /** Withdrawals not yet paid or sent, newest first; only under All and Withdraw, as the history files them. */
    async pendingHistory(
      userId: string,
      query: { filter: HistoryFilter[]; coinId?: string },
    ): Promise<PendingTransactions> {
      if (query.filter.length > 0 && !query.filter.includes('withdraw')) return { data: [] };
      const assets = await readAssetInfo(repository);
      const rows = await repository.listPendingWithdrawals(userId, assetOfCoinId(query.coinId, assets));
      return { data: rows.map((row) => toPendingTransaction(row, assets)) };
    },

    /**
     * `Crypto History.csv`, newest first, read in batches by journal id
     * (keyset), so memory stays flat however long the history is.
     */
    exportCsv(userId: string): Readable {
      async function* lines(): AsyncGenerator<string> {
        const assets = await readAssetInfo(repository);
        const scope = await scopeOf(userId, [], undefined, assets);
        yield csvLine(HISTORY_CSV_COLUMNS);
        const batchBefore = (before?: string) =>
          repository.listJournals(userId, scope, { limit: EXPORT_BATCH, offset: 0, before });
        // The next batch is read while this one is formatted: the database and Node work side by side.
        let next = batchBefore();
        try {
          for (;;) {
            const batch = await next;
            if (batch.length === 0) return;
            next = batchBefore(batch.at(-1)!.journal_id);
            let chunk = '';
            for (const journal of batch) {
              const row = toTransaction(journal, assets);
              chunk += csvLine([
                row.created_at,
                row.label,
                row.coin_symbol,
                row.direction === 'out' ? `-${row.amount}` : row.amount,
                row.currency_code ?? '',
                row.price ?? '',
                row.gbp_amount ?? '',
                row.fee,
                row.net_amount ?? '',
                row.id,
              ]);
            }
            yield chunk;
          }
        } finally {
          // A client that went away leaves one read in flight; its outcome no longer matters.
          next.catch(() => undefined);
        }
      }
      return Readable.from(lines());
    },
  };
}
