import { listFiatDeposits, type AdminFiatDeposit } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

type DepositPage = { data: AdminFiatDeposit[]; current_page: number; last_page: number };

/** Transfers waiting for a person (unmatched, name mismatch, customer not live, unknown account), oldest first. */
export const suspenseQuery = infiniteQueryOptions({
  queryKey: FIAT_ADMIN_KEYS.suspense,
  queryFn: ({ signal, pageParam }): Promise<DepositPage> =>
    adminCall(listFiatDeposits, { query: { page: pageParam, status: 'suspense' } }, { signal }),
  initialPageParam: 1,
  getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
});

export function useSuspenseList() {
  return useInfiniteQuery(suspenseQuery);
}
