import { claimAffiliateEarnings, IDEMPOTENCY_KEY_HEADER, type ClaimAffiliateBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { BALANCES_QUERY_KEY } from '../../../lib/portfolio';
import { REFERRAL_KEYS } from './referral-keys';

export type ClaimInput = {
  body: ClaimAffiliateBody;
  /** One per submitted claim: a retry sends the same key, so it cannot claim twice. */
  idempotencyKey: string;
};

export function newClaimKey(): string {
  return `affiliate-claim-${crypto.randomUUID()}`;
}

/** Spec 002 §8: the tab shows the failure itself (400 the message, 422 the list, else the generic text). */
export function claimEarnings({ body, idempotencyKey }: ClaimInput) {
  return apiCall(
    claimAffiliateEarnings,
    { body },
    { notify: false, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
  );
}

export function useClaimEarnings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimEarnings,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: REFERRAL_KEYS.earningsAll }),
        queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
      ]),
  });
}
