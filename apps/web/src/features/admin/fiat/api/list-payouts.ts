import { listPayoutQueue, type AdminFiatWithdrawal } from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

type PayoutPage = { data: AdminFiatWithdrawal[]; current_page: number; last_page: number };

/** Open fiat withdrawals (pending, approved), oldest first. */
export const payoutQueueQuery = infiniteQueryOptions({
  queryKey: FIAT_ADMIN_KEYS.payouts,
  queryFn: ({ signal, pageParam }): Promise<PayoutPage> =>
    adminCall(listPayoutQueue, { query: { page: pageParam, status: 'open' } }, { signal }),
  initialPageParam: 1,
  getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
});

export function usePayoutQueue() {
  return useInfiniteQuery(payoutQueueQuery);
}
