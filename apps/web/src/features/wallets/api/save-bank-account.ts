import {
  createBankAccount,
  updateBankAccount,
  type BankAccount,
  type CreateBankAccountBody,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { FIAT_KEYS } from './fiat-keys';

export type SaveBankAccountInput = CreateBankAccountBody & { id?: number };

/** A first save creates the record, later saves update it (spec 001 section 4). The form reports failures. */
export async function saveBankAccount({
  id,
  ...body
}: SaveBankAccountInput): Promise<{ data: BankAccount; message: string }> {
  if (id === undefined) return apiCall(createBankAccount, { body }, { notify: false });
  return apiCall(updateBankAccount, { body: { ...body, id } }, { notify: false });
}

export function useSaveBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBankAccount,
    onSuccess: ({ data }) => {
      queryClient.setQueryData(FIAT_KEYS.bankAccount(data.currency_code ?? 'GBP'), data);
      void queryClient.invalidateQueries({ queryKey: FIAT_KEYS.anyBankAccount });
      return queryClient.invalidateQueries({ queryKey: FIAT_KEYS.bankAccount(data.currency_code ?? 'GBP') });
    },
  });
}
