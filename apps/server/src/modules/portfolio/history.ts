import { Readable } from 'node:stream';
import {
  HISTORY_CSV_COLUMNS,
  HISTORY_PAGE_SIZE,
  listHistory,
  type HistoryFilter,
  type HistoryPage,
  type PendingTransactions,
} from '@florin/contracts';
import type { CsvCopy } from '../../db/copy-out.js';
import { csvLine } from '../../http/csv.js';
import { readPage } from '../../http/pages.js';
import { assetOfCoinId, readAssetInfo, type AssetInfo } from './asset-info.js';
import { historyCsvQuery, type HistorySource } from './export-query.js';
import { crlfLineEnds } from './line-ends.js';
import type { HistoryScope, PortfolioRepository } from './repository.js';
import { toPendingTransaction, toTransaction } from './transactions.js';

/** The export's batches: a small first one, so the first rows go at once, each next one twice as large up to `most`. */
export type ExportBatches = { first: number; most: number };

/**
 * 1,000 journals are some tens of milliseconds of PostgreSQL's work; 100,000 keep
 * the number of statements (and the pauses between them) to about 16 for a
 * million-journal history.
 */
export const HISTORY_EXPORT_BATCHES: ExportBatches = { first: 1_000, most: 100_000 };

/** The last few bytes of a COPY's output, kept across its chunks without copying them. */
function lastBytes() {
  let kept: Buffer[] = [];
  return {
    keep(chunk: Buffer) {
      kept = chunk.length >= 64 ? [chunk.subarray(-64)] : [...kept, chunk].slice(-64);
    },
    empty: () => kept.every((chunk) => chunk.length === 0),
    read: () => Buffer.concat(kept).toString('latin1'),
  };
}

/** The journal id a batch ended on: its last line's last column, a bare number (COPY quotes none). */
function lastJournalId(tail: string): string {
  const id = /,(\d+)\n$/.exec(tail)?.[1];
  if (id === undefined) throw new Error('the export batch did not end on a journal id');
  return id;
}

/** Whose export: the customer and every account of theirs, whose entries its rows fold. */
export async function historySourceOf(
  repository: PortfolioRepository,
  userId: string,
): Promise<HistorySource> {
  const accounts = await repository.listUserAccounts(userId);
  return { userId, accountIds: accounts.map((account) => account.id) };
}

/** The customer's transaction history: the pages, the withdrawals still pending, the CSV export. */
export function createPortfolioHistory(deps: { repository: PortfolioRepository; copyCsv: CsvCopy }) {
  const { repository, copyCsv } = deps;

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
     * `Crypto History.csv`, newest first: the header, then PostgreSQL's own
     * COPY of the rows (export-query.ts) in growing batches of journals, each
     * the next older than the last id sent, so the first rows go out at once;
     * streamed as the client reads it, line ends made CRLF like the header's.
     */
    exportCsv(userId: string, batches: ExportBatches = HISTORY_EXPORT_BATCHES): Readable {
      let batch: Readable | undefined;
      async function* file(): AsyncGenerator<Buffer> {
        const toCrlf = crlfLineEnds();
        const header = Buffer.from(csvLine(HISTORY_CSV_COLUMNS));
        // The header goes with the first rows: a database that fails before them is a 500, not a cut-off file.
        let headed = false;
        let before: string | undefined;
        let limit = batches.first;
        try {
          for (; ; limit = Math.min(limit * 2, batches.most)) {
            // Read for each batch, so an account opened during the download (a first coin) is in the next.
            const source = await historySourceOf(repository, userId);
            batch = copyCsv(historyCsvQuery(source, undefined, { before, limit }));
            const tail = lastBytes();
            for await (const chunk of batch) {
              tail.keep(chunk as Buffer);
              const lines = toCrlf(chunk as Buffer);
              yield headed ? lines : Buffer.concat([header, lines]);
              headed = true;
            }
            // An empty batch: the history has been sent to its oldest journal.
            if (tail.empty()) break;
            before = lastJournalId(tail.read());
          }
          if (!headed) yield header;
        } finally {
          // A client that went away stops reading here: the COPY is ended and its connection let go.
          batch?.destroy();
        }
      }
      return Readable.from(file(), { objectMode: false });
    },
  };
}
