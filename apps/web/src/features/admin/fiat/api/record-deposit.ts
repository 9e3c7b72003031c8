import { recordFiatDeposit, type RecordFiatDepositBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function recordDeposit(body: RecordFiatDepositBody) {
  return adminCall(recordFiatDeposit, { body }, { notify: false });
}

export function useRecordDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.deposits }),
  });
}
