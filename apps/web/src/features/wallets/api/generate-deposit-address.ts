import { generateDepositAddress, type CoinId } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { CRYPTO_KEYS } from './crypto-keys';
import type { CoinDepositAddress } from './list-wallet-addresses';

/** 'Generate Address' (XRP: the customer's destination tag); failures are shown by the shared handler. */
export function generateAddress(coin: CoinId) {
  return apiCall(generateDepositAddress, { params: { coin_id: coin } }, { errorTitle: 'Failed' });
}

export function useGenerateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateAddress,
    onSuccess: ({ data }) =>
      queryClient.setQueryData<CoinDepositAddress>(CRYPTO_KEYS.addresses(data.coin_id), {
        wallet: data,
        unavailable: null,
      }),
  });
}
