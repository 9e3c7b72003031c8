import {
  COMPLETED_STATUS_LABEL,
  CRYPTO_WITHDRAWAL_STATUS_LABELS,
  FIAT_WITHDRAWAL_STATUS_LABELS,
  TRANSACTION_TYPES,
  type CryptoWithdrawalStatus,
  type FiatWithdrawalStatus,
  type Transaction,
  type TransactionType,
} from '@florin/contracts';
import { fromMinorUnits } from '@florin/domain';
import type { AssetInfo } from './asset-info.js';
import type { HistoryJournal, PendingWithdrawalRow } from './repository.js';

/** The type each kind of journal shows as (a trade's is Buy or Sell, by its coin leg); any other kind: 11. */
export const JOURNAL_TYPES: Record<string, TransactionType> = {
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

/** One journal (the customer's legs of it) as the row the history shows. */
// Called once per row of a million-row export: no closures or spreads made per call.
export function toTransaction(journal: HistoryJournal, assets: Map<string, AssetInfo>): Transaction {
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
export function toPendingTransaction(row: PendingWithdrawalRow, assets: Map<string, AssetInfo>): Transaction {
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
