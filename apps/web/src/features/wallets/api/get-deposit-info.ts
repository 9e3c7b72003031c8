import { getDepositBankInfo, type DepositBankInfo } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { FIAT_KEYS } from './fiat-keys';

/** Where the customer sends a bank transfer, and the reference it must carry. */
export const depositInfoQuery = queryOptions({
  queryKey: FIAT_KEYS.depositInfo,
  queryFn: async ({ signal }): Promise<DepositBankInfo> =>
    (await apiCall(getDepositBankInfo, {}, { signal, notify: false })).data,
});

/** Asked only of a customer who may deposit: the server answers anyone else 403. */
export function useDepositInfo(isLive: boolean) {
  return useQuery({ ...depositInfoQuery, enabled: isLive });
}
