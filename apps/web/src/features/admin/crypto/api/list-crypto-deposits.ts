import {
  listAdminCryptoDeposits,
  type AdminCryptoDeposit,
  type CryptoDepositStatus,
} from '@florin/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_DEPOSIT_KEYS } from './crypto-deposit-keys';

/** `all` lists every deposit; `suspense` is the work list (untagged XRP payments). Newest first either way. */
export type CryptoDepositFilter = 'all' | CryptoDepositStatus;

type CryptoDepositPage = { data: AdminCryptoDeposit[]; current_page: number; last_page: number };

export function cryptoDepositsQuery(status: CryptoDepositFilter) {
  return infiniteQueryOptions({
    queryKey: CRYPTO_DEPOSIT_KEYS.depositsBy(status),
    queryFn: ({ signal, pageParam }): Promise<CryptoDepositPage> =>
      adminCall(
        listAdminCryptoDeposits,
        { query: { page: pageParam, ...(status === 'all' ? {} : { status }) } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
  });
}

export function useCryptoDeposits(status: CryptoDepositFilter) {
  return useInfiniteQuery(cryptoDepositsQuery(status));
}
