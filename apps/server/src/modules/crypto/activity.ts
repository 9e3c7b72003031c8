import {
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_ACTIVITY_PAGE_SIZE,
  CRYPTO_DEPOSIT_STATUS_LABELS,
  listCryptoActivity,
  type CoinId,
  type CryptoActivity,
  type Page,
} from '@florin/contracts';
import type { CryptoDepositsTable, RowOf } from '../../db/schema.js';
import { readPage } from '../../http/pages.js';
import { asAsset, coins } from './shared.js';
import type { WithdrawalCancellation } from './withdrawal-cancellation.js';
import { toWithdrawal, type CryptoWithdrawalServiceDeps } from './withdrawal-context.js';
import type { CryptoWithdrawalRow } from './withdrawal-repository.js';

/** The customer's crypto history: deposits and withdrawals in one list, newest first. */
export function createCryptoActivity(
  deps: CryptoWithdrawalServiceDeps,
  cancellation: WithdrawalCancellation,
) {
  const { repository } = deps;
  const { expireOverdue } = cancellation;

  async function listActivity(userId: number, page: number, coinId?: CoinId): Promise<Page<CryptoActivity>> {
    const asset = coinId ? assetOfCoinId(coinId) : undefined;
    await expireOverdue(userId);
    type Item = { deposit: RowOf<CryptoDepositsTable> } | { withdrawal: CryptoWithdrawalRow };
    return readPage({
      page,
      path: listCryptoActivity.path,
      perPage: CRYPTO_ACTIVITY_PAGE_SIZE,
      filters: { coin: coinId },
      count: () => repository.countActivity(userId, asset),
      list: async (limit, offset) => {
        const rows = await repository.listActivity(userId, asset, limit, offset);
        const ids = (type: 'deposit' | 'withdrawal') =>
          rows.filter((row) => row.type === type).map((row) => row.id);
        const [deposits, withdrawals] = await Promise.all([
          repository.listDepositsByIds(ids('deposit')),
          repository.listByIds(ids('withdrawal')),
        ]);
        return rows.flatMap((item): Item[] => {
          const deposit = item.type === 'deposit' ? deposits.find((row) => row.id === item.id) : undefined;
          const withdrawal =
            item.type === 'withdrawal' ? withdrawals.find((row) => row.id === item.id) : undefined;
          if (deposit) return [{ deposit }];
          return withdrawal ? [{ withdrawal }] : [];
        });
      },
      toItem: (item): CryptoActivity => {
        if ('deposit' in item) {
          const { deposit } = item;
          return {
            id: `deposit:${deposit.id}`,
            type: 'deposit',
            coin_id: coinIdOfAsset(asAsset(deposit.asset)),
            amount: coins(deposit.amount, deposit.asset),
            fee: coins(0n, deposit.asset),
            status: deposit.status,
            status_label: CRYPTO_DEPOSIT_STATUS_LABELS[deposit.status],
            address: deposit.address,
            txid: deposit.txid,
            confirmations: deposit.confirmations,
            required_confirmations: deposit.required_confirmations,
            withdrawal: null,
            created_at: deposit.created_at.toISOString(),
          };
        }
        const withdrawal = toWithdrawal(item.withdrawal);
        return {
          id: `withdrawal:${withdrawal.id}`,
          type: 'withdrawal',
          coin_id: withdrawal.coin_id,
          amount: withdrawal.amount,
          fee: withdrawal.fee,
          status: withdrawal.status,
          status_label: withdrawal.status_label,
          address: withdrawal.address,
          txid: withdrawal.txid,
          confirmations: null,
          required_confirmations: null,
          withdrawal,
          created_at: withdrawal.created_at,
        };
      },
    });
  }

  return { listActivity };
}
