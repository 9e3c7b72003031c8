import { listPublicCoins, type PublicCoins } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

/** Each active coin's platform fee and trade limits (`GET /api/crypto/coins`, spec 002 §7), for the fees page. */
export const publicCoinsQuery = queryOptions({
  queryKey: ['public-coins'] as const,
  // The page shows its own failure, with a retry.
  queryFn: ({ signal }): Promise<PublicCoins> => apiCall(listPublicCoins, {}, { signal, notify: false }),
  staleTime: 60_000,
});

export function usePublicCoins() {
  return useQuery(publicCoinsQuery);
}
