import {
  listAffiliateClaims,
  markAffiliateClaimPaid,
  rejectAffiliateClaim,
  type AffiliateClaimStatus,
} from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export function affiliateClaimsQuery(status: AffiliateClaimStatus) {
  return queryOptions({
    queryKey: ['admin', 'affiliate-claims', status] as const,
    queryFn: async ({ signal }) =>
      (await adminCall(listAffiliateClaims, { query: { status } }, { signal })).data,
  });
}

export function useAffiliateClaims(status: AffiliateClaimStatus) {
  return useQuery(affiliateClaimsQuery(status));
}

/** Paying or rejecting changes every list of claims. */
export function useResolveAffiliateClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input: { id: string; outcome: 'paid' } | { id: string; outcome: 'rejected'; reason: string },
    ) =>
      input.outcome === 'paid'
        ? adminCall(markAffiliateClaimPaid, { params: { id: input.id } })
        : adminCall(rejectAffiliateClaim, { params: { id: input.id }, body: { reason: input.reason } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'affiliate-claims'] }),
  });
}
