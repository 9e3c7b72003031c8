import { getFiatWithdrawInfo, type FiatCurrency } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client';
import { FIAT_KEYS } from './fiat-keys';

export type FiatWithdrawInfo = z.output<(typeof getFiatWithdrawInfo.responses)[200]>['data'];

/** Minimum, fee rule, what may be withdrawn now, and whether a 2FA code is asked. */
export function withdrawInfoQuery(currency: FiatCurrency) {
  return queryOptions({
    queryKey: FIAT_KEYS.withdrawInfo(currency),
    // Staff change it off-screen (verification, the wait's end): fetched again whenever the form opens.
    staleTime: 0,
    queryFn: async ({ signal }): Promise<FiatWithdrawInfo> =>
      (await apiCall(getFiatWithdrawInfo, { query: { currency_code: currency } }, { signal, notify: false }))
        .data,
  });
}

export function useWithdrawInfo(currency: FiatCurrency) {
  return useQuery(withdrawInfoQuery(currency));
}
