import { removeWhitelistedIp, whitelistIp } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { WHITELIST_KEYS } from './whitelist-keys';

export type AddIpInput = { owner: string; ip_address: string; passcode: string };

/** The form reports failures itself ('Failed' with the first error, spec 001 §8). */
export function addWhitelistedIp({ owner, ip_address, passcode }: AddIpInput) {
  return apiCall(
    whitelistIp,
    {
      params: { userIdentification: owner },
      body: { ip_address: ip_address.trim(), passcode: passcode.trim() },
    },
    { notify: false },
  );
}

export function useAddWhitelistedIp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWhitelistedIp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.ips }),
  });
}

export type RemoveIpInput = { owner: string; id: string; passcode: string };

export function removeIp({ owner, id, passcode }: RemoveIpInput) {
  return apiCall(
    removeWhitelistedIp,
    { params: { userIdentification: owner, id }, body: { passcode } },
    { notify: false },
  );
}

export function useRemoveWhitelistedIp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeIp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.ips }),
  });
}
