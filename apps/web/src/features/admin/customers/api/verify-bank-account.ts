import { verifyBankAccount } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { AUDIT_LOG_QUERY_KEY } from '../../api/list-audit-log';
import { customerBankAccountsKey } from './get-bank-accounts';

/** The reason modal shows a refused reason under its field, so failures are not toasted here. */
export function verifyBankAccountOf(id: number, reason: string) {
  return adminCall(verifyBankAccount, { params: { id }, body: { reason } }, { notify: false });
}

/**
 * Finance verifies a customer's bank account by hand. The list is refreshed
 * even on failure: "already verified" means someone else got there first.
 */
export function useVerifyBankAccount(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => verifyBankAccountOf(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerBankAccountsKey(userId) }),
  });
}
