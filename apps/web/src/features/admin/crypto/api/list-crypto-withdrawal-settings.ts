import { listCryptoWithdrawalSettings, type CryptoWithdrawalSettings } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_WITHDRAWAL_KEYS } from './crypto-withdrawal-keys';

export const cryptoWithdrawalSettingsQuery = queryOptions({
  queryKey: CRYPTO_WITHDRAWAL_KEYS.settings,
  queryFn: async ({ signal }): Promise<CryptoWithdrawalSettings[]> =>
    (await adminCall(listCryptoWithdrawalSettings, {}, { signal })).data,
});

export function useCryptoWithdrawalSettings() {
  return useQuery(cryptoWithdrawalSettingsQuery);
}
