import {
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_DEPOSIT_STATUS_LABELS,
  CRYPTO_DEPOSITS_PAGE_SIZE,
  listAdminCryptoDeposits,
  listCryptoDeposits,
  type AdminCryptoDeposit,
  type CoinId,
  type CryptoDeposit,
  type CryptoDepositStatus,
  type Page,
} from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { readPage } from '../../http/pages.js';
import type { CryptoServiceDeps } from './deposit-context.js';
import type { AdminCryptoDepositRow, CryptoDepositRow } from './repository.js';
import { asAsset } from './shared.js';

function toDeposit(row: CryptoDepositRow): CryptoDeposit {
  const asset = asAsset(row.asset);
  return {
    id: row.id,
    coin_id: coinIdOfAsset(asset),
    amount: formatAmount(BigInt(row.amount), asset),
    txid: row.txid,
    address: row.address,
    tag: row.tag,
    status: row.status,
    status_label: CRYPTO_DEPOSIT_STATUS_LABELS[row.status],
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    created_at: row.created_at.toISOString(),
    credited_at: row.credited_at?.toISOString() ?? null,
  };
}

export function toAdminDeposit(row: AdminCryptoDepositRow): AdminCryptoDeposit {
  return {
    ...toDeposit(row),
    asset: asAsset(row.asset),
    output: row.output,
    user_id: row.user_id,
    user_identification: row.user_identification,
    customer_name: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    resolution_note: row.resolution_note,
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

/** The deposits as customers and staff list them. */
export function createDepositHistory(deps: CryptoServiceDeps) {
  const { repository } = deps;

  async function listDeposits(
    userId: number,
    query: { page: number; coin?: CoinId; status?: 'pending' | 'credited' },
  ): Promise<Page<CryptoDeposit>> {
    const asset = query.coin ? assetOfCoinId(query.coin) : undefined;
    return readPage({
      page: query.page,
      path: listCryptoDeposits.path,
      perPage: CRYPTO_DEPOSITS_PAGE_SIZE,
      filters: { coin: query.coin, status: query.status },
      count: () => repository.countCustomerDeposits(userId, asset, query.status),
      list: (limit, offset) => repository.listCustomerDeposits(userId, asset, query.status, limit, offset),
      toItem: toDeposit,
    });
  }

  async function listAdminDeposits(
    page: number,
    status?: CryptoDepositStatus,
  ): Promise<Page<AdminCryptoDeposit>> {
    return readPage({
      page,
      path: listAdminCryptoDeposits.path,
      filters: { status },
      count: () => repository.countAdminDeposits(status),
      list: (limit, offset) => repository.listAdminDeposits(status, limit, offset),
      toItem: toAdminDeposit,
    });
  }

  return { listDeposits, listAdminDeposits };
}
