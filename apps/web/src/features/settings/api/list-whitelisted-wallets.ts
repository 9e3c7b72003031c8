import { listWhitelistedWallets, type WhitelistedWallet } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { WHITELIST_KEYS } from './whitelist-keys';

export type WhitelistedWalletPage = { data: WhitelistedWallet[]; total: number };

/** The newest `limit` whitelisted addresses (masked by the server) and how many there are in all. */
export function whitelistedWalletsQuery(limit: number) {
  return queryOptions({
    queryKey: WHITELIST_KEYS.walletList(limit),
    queryFn: ({ signal }): Promise<WhitelistedWalletPage> =>
      apiCall(listWhitelistedWallets, { query: { limit } }, { signal }),
    // View More keeps the entries on screen while the longer list loads.
    placeholderData: keepPreviousData,
  });
}

export function useWhitelistedWallets(limit: number) {
  return useQuery(whitelistedWalletsQuery(limit));
}
