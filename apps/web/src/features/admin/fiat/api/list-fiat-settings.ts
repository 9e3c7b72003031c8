import { listFiatBankSettings, type FiatBankSettings } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

export const fiatSettingsQuery = queryOptions({
  queryKey: FIAT_ADMIN_KEYS.settings,
  queryFn: async ({ signal }): Promise<FiatBankSettings[]> =>
    (await adminCall(listFiatBankSettings, {}, { signal })).data,
});

export function useFiatSettings() {
  return useQuery(fiatSettingsQuery);
}
