import { listTermDepositCoins, type TermDepositCoin } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { TERM_DEPOSIT_KEYS } from './term-deposit-keys';

/** Each coin with the customer's available balance and the terms offered. */
export const termDepositCoinsQuery = queryOptions({
  queryKey: TERM_DEPOSIT_KEYS.coins,
  // The page shows its own failure with a retry.
  queryFn: async ({ signal }): Promise<TermDepositCoin[]> =>
    (await apiCall(listTermDepositCoins, {}, { signal, notify: false })).data,
});

export function useTermDepositCoins() {
  return useQuery(termDepositCoinsQuery);
}
