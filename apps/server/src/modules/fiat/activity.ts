import {
  FIAT_ACTIVITY_PAGE_SIZE,
  FIAT_WITHDRAWAL_STATUS_LABELS,
  listFiatActivity,
  type FiatActivity,
  type FiatCurrency,
  type Page,
} from '@florin/contracts';
import { readPage } from '../../http/pages.js';
import type { DepositRow } from './deposit-repository.js';
import { asCurrency, money, toWithdrawal, type FiatServiceDeps } from './shared.js';
import type { WithdrawalRow } from './withdrawal-repository.js';

/** The customer's fiat activity: credited deposits and every withdrawal, newest first. */
export function createActivity(deps: Pick<FiatServiceDeps, 'repository'>) {
  const { repository } = deps;

  return {
    async listActivity(userId: number, page: number, currency?: FiatCurrency): Promise<Page<FiatActivity>> {
      return readPage({
        page,
        path: listFiatActivity.path,
        perPage: FIAT_ACTIVITY_PAGE_SIZE,
        filters: { currency_code: currency },
        count: () => repository.countActivity(userId, currency),
        list: async (limit, offset) => {
          const rows = await repository.listActivity(userId, currency, limit, offset);
          const ids = (type: 'deposit' | 'withdrawal') =>
            rows.filter((row) => row.type === type).map((row) => row.id);
          const [depositRows, withdrawalRows] = await Promise.all([
            repository.listDepositsByIds(ids('deposit')),
            repository.listWithdrawalsByIds(ids('withdrawal')),
          ]);
          return rows.map((item): { deposit: DepositRow } | { withdrawal: WithdrawalRow } =>
            item.type === 'deposit'
              ? { deposit: depositRows.find((row) => row.id === item.id) as DepositRow }
              : { withdrawal: withdrawalRows.find((row) => row.id === item.id) as WithdrawalRow },
          );
        },
        toItem: (item): FiatActivity => {
          if ('deposit' in item) {
            const { deposit } = item;
            return {
              id: `deposit:${deposit.id}`,
              type: 'deposit',
              currency: asCurrency(deposit.currency),
              amount: money(deposit.amount, deposit.currency),
              fee: money(0n, deposit.currency),
              status: 'credited',
              status_label: 'Completed',
              withdrawal: null,
              created_at: deposit.created_at.toISOString(),
            };
          }
          const withdrawal = toWithdrawal(item.withdrawal);
          return {
            id: `withdrawal:${withdrawal.id}`,
            type: 'withdrawal',
            currency: withdrawal.currency,
            amount: withdrawal.amount,
            fee: withdrawal.fee,
            status: withdrawal.status,
            status_label: FIAT_WITHDRAWAL_STATUS_LABELS[withdrawal.status],
            withdrawal,
            created_at: withdrawal.created_at,
          };
        },
      });
    },
  };
}
