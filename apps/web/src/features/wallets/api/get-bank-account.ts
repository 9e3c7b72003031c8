import { getBankAccountDetails, type BankAccount, type FiatCurrency } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { FIAT_KEYS } from './fiat-keys';

/** The customer's registered bank account in `currency`, or null when there is none. */
export function bankAccountQuery(currency: FiatCurrency) {
  return queryOptions({
    queryKey: FIAT_KEYS.bankAccount(currency),
    // Staff change it off-screen (verification, the wait's end): fetched again whenever the form opens.
    staleTime: 0,
    queryFn: async ({ signal }): Promise<BankAccount | null> =>
      (
        await apiCall(
          getBankAccountDetails,
          { query: { currency_code: currency } },
          { signal, errorTitle: 'Failed!' },
        )
      ).data,
  });
}

export function useBankAccount(currency: FiatCurrency | undefined) {
  return useQuery({ ...bankAccountQuery(currency ?? 'GBP'), enabled: currency !== undefined });
}

/** Whether the customer has registered a bank account in any currency (spec 001: the withdraw tab's warning). */
export function useHasAnyBankAccount() {
  return useQuery({
    queryKey: FIAT_KEYS.anyBankAccount,
    staleTime: 0,
    queryFn: async ({ signal }): Promise<boolean> =>
      (await apiCall(getBankAccountDetails, {}, { signal, errorTitle: 'Failed!' })).accounts.length > 0,
  });
}
