import {
  createAdminTermDepositOption,
  updateAdminTermDepositOption,
  type CoinId,
  type TermDepositOptionBody,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TERM_DEPOSIT_KEYS } from './admin-term-deposit-keys';

/** A new term (`id` unset) or a change to one; the form shows failures itself. */
export type SaveTermDepositOptionInput = { id?: number; coinId: CoinId; body: TermDepositOptionBody };

export function saveTermDepositOption({ id, coinId, body }: SaveTermDepositOptionInput) {
  return id === undefined
    ? adminCall(createAdminTermDepositOption, { body: { ...body, coin_id: coinId } }, { notify: false })
    : adminCall(updateAdminTermDepositOption, { params: { id }, body }, { notify: false });
}

export function useSaveTermDepositOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTermDepositOption,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_TERM_DEPOSIT_KEYS.options }),
  });
}
