import {
  listCryptoPayoutQueue,
  type AdminCryptoWithdrawal,
  type CryptoWithdrawalStatus,
} from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_WITHDRAWAL_KEYS } from './crypto-withdrawal-keys';

/** `open` is the work list (pending, approved, sent), oldest first; a single status lists newest first. */
export type CryptoPayoutFilter = 'open' | CryptoWithdrawalStatus;

type CryptoPayoutPage = { data: AdminCryptoWithdrawal[]; current_page: number; last_page: number };

/** Customers and other staff change the queue all the time: it is read afresh on every visit and each half minute. */
const QUEUE_REFRESH_MS = 30_000;

export function cryptoPayoutQueueQuery(status: CryptoPayoutFilter) {
  return infiniteQueryOptions({
    queryKey: CRYPTO_WITHDRAWAL_KEYS.payoutsBy(status),
    queryFn: ({ signal, pageParam }): Promise<CryptoPayoutPage> =>
      adminCall(listCryptoPayoutQueue, { query: { page: pageParam, status } }, { signal }),
    staleTime: 0,
    refetchInterval: QUEUE_REFRESH_MS,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
  });
}

export function useCryptoPayoutQueue(status: CryptoPayoutFilter) {
  return useInfiniteQuery(cryptoPayoutQueueQuery(status));
}
