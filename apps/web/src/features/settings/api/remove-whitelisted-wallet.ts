import { destroyWhitelistedWallet, sendVerifyWalletRemoval, verifyWalletRemoval } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { WHITELIST_KEYS } from './whitelist-keys';

/*
 * Removing a whitelisted address takes three calls (spec 001 §4): a code is
 * e-mailed, the code is checked, then the address is removed. The removal
 * modal reports every failure itself.
 */

/** E-mails a code that confirms the removal of this address (and, sent again, replaces an expired one). */
export function requestWalletRemovalCode(id: string) {
  return apiCall(sendVerifyWalletRemoval, { body: { id } }, { notify: false });
}

export function useRequestWalletRemovalCode() {
  return useMutation({ mutationFn: requestWalletRemovalCode });
}

export type ConfirmWalletRemovalInput = { id: string; verify_code: string };

/** Checks the e-mailed code, then removes the address. */
export async function confirmWalletRemoval({ id, verify_code }: ConfirmWalletRemovalInput) {
  await apiCall(verifyWalletRemoval, { body: { id, verify_code } }, { notify: false });
  return apiCall(destroyWhitelistedWallet, { params: { id } }, { notify: false });
}

export function useConfirmWalletRemoval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmWalletRemoval,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.wallets }),
        queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.savedAddresses }),
      ]),
  });
}
