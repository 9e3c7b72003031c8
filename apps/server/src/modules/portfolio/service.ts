import { Readable } from 'node:stream';
import {
  AppError,
  COMPLETED_STATUS_LABEL,
  CRYPTO_WITHDRAWAL_STATUS_LABELS,
  FIAT_WITHDRAWAL_STATUS_LABELS,
  HISTORY_CSV_COLUMNS,
  HISTORY_PAGE_SIZE,
  listHistory,
  TRANSACTION_TYPES,
  type AssetBalance,
  type Balances,
  type CryptoWithdrawalStatus,
  type FiatWithdrawalStatus,
  type HistoryFilter,
  type HistoryPage,
  type PendingTransactions,
  type Transaction,
  type TransactionType,
} from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import { PriceDecimal } from '../../adapters/prices/decimal.js';
import { readPage } from '../../http/pages.js';
import type { MarketService } from '../market/service.js';
import type {
  HistoryJournal,
  HistoryScope,
  PendingWithdrawalRow,
  PortfolioRepository,
} from './repository.js';
import { csvLine } from '../../http/csv.js';
import { NO_BALANCE, type CustomerBalance } from './customer-balances.js';
export { NO_BALANCE, readCustomerBalances, type CustomerBalance } from './customer-balances.js';

/** Journals read per batch of the export: big enough to amortise the round trip, small enough to keep memory flat. */
const EXPORT_BATCH = 1000;

type AssetInfo = {
  code: string;
  kind: 'fiat' | 'coin';
  scale: number;
  /** Listed now (an active coin or currency). */
  active: boolean;
  sortOrder: number;
  coinId?: string;
  symbol?: string;
  /** A coin's switches: what the dashboard's buttons may do. */
  flags?: {
    disable_buy: boolean;
    disable_sell: boolean;
    disable_deposit: boolean;
    disable_withdraw: boolean;
  };
};

const JOURNAL_TYPES: Record<string, TransactionType> = {
  crypto_deposit: 3,
  crypto_withdrawal: 4,
  fiat_deposit: 5,
  fiat_withdrawal: 6,
  term_deposit_lock: 7,
  term_deposit_maturity: 8,
  affiliate_claim: 9,
  fee: 10,
  adjustment: 11,
  // Earned on a referred customer's trade, into the referrer's referral balance (issue 10).
  affiliate_commission: 12,
};

/** A decimal the journal's metadata recorded, or null when it recorded none (or something else). */
function recordedDecimal(value: string | null): string | null {
  return value !== null && /^-?\d+(\.\d+)?$/.test(value) ? value : null;
}

/** The asset a history query's coin_id names (a coin's id or an asset code); undefined: every asset. */
function assetOfCoinId(coinId: string | undefined, assets: Map<string, AssetInfo>): string | undefined {
  if (coinId === undefined) return undefined;
  const asset = [...assets.values()].find(
    (info) => info.coinId === coinId || info.code.toLowerCase() === coinId,
  )?.code;
  if (!asset) throw new AppError('VALIDATION_FAILED', undefined, { coin_id: ['Unknown asset.'] });
  return asset;
}

export function createPortfolioService(deps: { repository: PortfolioRepository; market: MarketService }) {
  const { repository, market } = deps;

  async function assetInfo(): Promise<Map<string, AssetInfo>> {
    const { assets, coins, currencies } = await repository.listAssets();
    const info = new Map<string, AssetInfo>();
    for (const asset of assets) {
      info.set(asset.code, {
        code: asset.code,
        kind: asset.kind,
        scale: asset.scale,
        active: false,
        sortOrder: 0,
      });
    }
    for (const coin of coins) {
      const entry = info.get(coin.asset);
      if (!entry) continue;
      const { disable_buy, disable_sell, disable_deposit, disable_withdraw } = coin;
      Object.assign(entry, {
        coinId: coin.coin_id,
        active: coin.active,
        sortOrder: coin.sort_order,
        flags: { disable_buy, disable_sell, disable_deposit, disable_withdraw },
      });
    }
    for (const currency of currencies) {
      const entry = info.get(currency.code);
      if (entry)
        Object.assign(entry, {
          symbol: currency.symbol,
          active: currency.active,
          sortOrder: currency.sort_order,
        });
    }
    return info;
  }

  /** One journal (the customer's legs of it) as the row the history shows. */
  // Called once per row of a million-row export: no closures or spreads made per call.
  function toTransaction(journal: HistoryJournal, assets: Map<string, AssetInfo>): Transaction {
    const { coin_asset: coin, coin_amount: coinAmount, trade } = journal;
    if (trade && coin && coinAmount) {
      // Every figure is the one the trade recorded when it executed, not worked back from the postings.
      const coinUnits = BigInt(coinAmount);
      const isBuy = coinUnits > 0n;
      const scale = assets.get(trade.fiat)?.scale ?? 2;
      const gbp = fromMinorUnits(BigInt(trade.gbp_value), 2);
      const type: TransactionType = isBuy ? 1 : 2;
      return {
        id: journal.journal_id,
        transaction_type: type,
        label: TRANSACTION_TYPES[type],
        direction: isBuy ? 'in' : 'out',
        coin_symbol: coin,
        amount: fromMinorUnits(isBuy ? coinUnits : -coinUnits, assets.get(coin)?.scale ?? 0),
        currency_code: trade.fiat,
        currency_symbol: assets.get(trade.fiat)?.symbol ?? null,
        purchase_amount_gbp: isBuy ? gbp : null,
        sell_amount_gbp: isBuy ? null : gbp,
        gbp_amount: gbp,
        fee: fromMinorUnits(BigInt(trade.fee), scale),
        price: trade.price,
        net_amount: fromMinorUnits(BigInt(trade.total), scale),
        created_at: journal.created_at,
        status: 'completed',
        status_label: COMPLETED_STATUS_LABEL,
      };
    }

    // Every movement but a trade moves one spendable asset (a term deposit lock also moves it into
    // their term account); one with no spendable leg at all shows its other leg.
    const asset = journal.coin_asset ?? journal.cash_asset ?? journal.other_asset ?? '';
    const units = BigInt(journal.coin_amount ?? journal.cash_amount ?? journal.other_amount ?? '0');
    const type = JOURNAL_TYPES[journal.journal_kind] ?? 11;
    const info = assets.get(asset);
    const amount = fromMinorUnits(units < 0n ? -units : units, info?.scale ?? 0);
    const isFiat = info?.kind === 'fiat';
    return {
      id: journal.journal_id,
      transaction_type: type,
      label: TRANSACTION_TYPES[type],
      direction: units >= 0n ? 'in' : 'out',
      coin_symbol: asset,
      amount,
      currency_code: isFiat ? asset : null,
      currency_symbol: isFiat ? (info?.symbol ?? null) : null,
      purchase_amount_gbp: null,
      sell_amount_gbp: null,
      gbp_amount: asset === 'GBP' ? amount : recordedDecimal(journal.gbp_value),
      fee: recordedDecimal(journal.fee) ?? '0',
      price: null,
      net_amount: null,
      created_at: journal.created_at,
      status: 'completed',
      status_label: COMPLETED_STATUS_LABEL,
    };
  }

  /** A withdrawal still holding the customer's money, as the row Recent Activity shows above the history. */
  function toPendingTransaction(row: PendingWithdrawalRow, assets: Map<string, AssetInfo>): Transaction {
    const info = assets.get(row.asset);
    const scale = info?.scale ?? 0;
    const isFiat = row.kind === 'fiat';
    const type: TransactionType = isFiat ? 6 : 4;
    const amount = fromMinorUnits(BigInt(row.amount), scale);
    return {
      // Prefixed: a withdrawal's id and a journal's are counted apart and may be equal.
      id: `${row.kind}-withdrawal-${row.id}`,
      transaction_type: type,
      label: TRANSACTION_TYPES[type],
      direction: 'out',
      coin_symbol: row.asset,
      amount,
      currency_code: isFiat ? row.asset : null,
      currency_symbol: isFiat ? (info?.symbol ?? null) : null,
      purchase_amount_gbp: null,
      sell_amount_gbp: null,
      gbp_amount: row.asset === 'GBP' ? amount : null,
      fee: fromMinorUnits(BigInt(row.fee), scale),
      price: null,
      net_amount: null,
      created_at: row.created_at,
      status: 'pending',
      status_label: isFiat
        ? FIAT_WITHDRAWAL_STATUS_LABELS[row.status as FiatWithdrawalStatus]
        : CRYPTO_WITHDRAWAL_STATUS_LABELS[row.status as CryptoWithdrawalStatus],
    };
  }

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
    async balances(userId: string): Promise<Balances> {
      const [assets, owned] = await Promise.all([assetInfo(), repository.balancesOf(userId)]);
      const totals = new Map<string, CustomerBalance>();
      // GBP and every active coin have a row, held or not (the dashboard lists them); other fiats once held.
      for (const info of assets.values())
        if (info.code === 'GBP' || (info.kind === 'coin' && info.active)) totals.set(info.code, NO_BALANCE);
      for (const [asset, balance] of owned) totals.set(asset, balance);

      let pricesStale = false;
      const values = new Map<string, PriceDecimal | null>();
      let portfolio = new PriceDecimal(0);
      for (const [asset, total] of totals) {
        const info = assets.get(asset);
        if (!info) continue;
        const rate = market.gbpRate(asset);
        if (rate === null) {
          if (total.total !== 0n) pricesStale = true;
          values.set(asset, null);
          continue;
        }
        const value = new PriceDecimal(fromMinorUnits(total.total, info.scale))
          .times(rate)
          .toDecimalPlaces(2, PriceDecimal.ROUND_DOWN);
        values.set(asset, value);
        portfolio = portfolio.plus(value);
      }

      const balances: Record<string, AssetBalance> = {};
      const termBalances: Record<string, { balance: string }> = {};
      const order = (asset: string) => {
        const info = assets.get(asset);
        return info ? (info.kind === 'fiat' ? 0 : 1_000_000) + info.sortOrder : Number.MAX_SAFE_INTEGER;
      };
      for (const [asset, total] of [...totals].sort(([a], [b]) => order(a) - order(b))) {
        const info = assets.get(asset);
        if (!info) continue;
        const key = info.kind === 'coin' ? (info.coinId ?? asset.toLowerCase()) : asset;
        const value = values.get(asset) ?? null;
        balances[key] = {
          asset,
          kind: info.kind,
          amount: fromMinorUnits(total.available, info.scale),
          available: fromMinorUnits(total.available, info.scale),
          held: fromMinorUnits(total.held, info.scale),
          held_orders: fromMinorUnits(total.heldByOrders, info.scale),
          held_withdrawals: fromMinorUnits(total.heldByWithdrawals, info.scale),
          term_deposit: fromMinorUnits(total.termDeposit, info.scale),
          total: fromMinorUnits(total.total, info.scale),
          gbp_value: value === null ? null : value.toFixed(2),
          percentage:
            value === null ? null : portfolio.isZero() ? '0.00' : value.div(portfolio).times(100).toFixed(2),
          ...info.flags,
        };
        if (info.kind === 'coin' && total.termDeposit > 0n)
          termBalances[key] = { balance: fromMinorUnits(total.termDeposit, info.scale) };
      }
      return {
        data: [
          {
            balances,
            term_deposit_balances: termBalances,
            total_gbp: portfolio.toFixed(2),
            prices_stale: pricesStale,
          },
        ],
      };
    },

    async history(
      userId: string,
      query: { page: number; filter: HistoryFilter[]; coinId?: string },
      path: string = listHistory.path,
    ): Promise<HistoryPage> {
      const assets = await assetInfo();
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
      const assets = await assetInfo();
      const rows = await repository.listPendingWithdrawals(userId, assetOfCoinId(query.coinId, assets));
      return { data: rows.map((row) => toPendingTransaction(row, assets)) };
    },

    /**
     * `Crypto History.csv`, newest first, read in batches by journal id
     * (keyset), so memory stays flat however long the history is.
     */
    exportCsv(userId: string): Readable {
      async function* lines(): AsyncGenerator<string> {
        const assets = await assetInfo();
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

export type PortfolioService = ReturnType<typeof createPortfolioService>;
