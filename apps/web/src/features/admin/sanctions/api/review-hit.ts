import {
  confirmSanctionsHit,
  markSanctionsHitFalsePositive,
  recordSanctionsHitDelisted,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshAfterDecision } from '../../compliance/api/get-case';
import { SANCTIONS_HITS_QUERY_KEY } from './list-hits';

/** What compliance decides about an open hit, and about a confirmed one whose designation was revoked. */
export type HitDecision = 'false_positive' | 'confirmed' | 'delisted';

/** The note modal shows a refused note under its field, so failures are not toasted here. */
export function reviewHit(hitId: number, decision: HitDecision, note: string) {
  const request = { params: { id: hitId }, body: { note } };
  if (decision === 'confirmed') return adminCall(confirmSanctionsHit, request, { notify: false });
  if (decision === 'delisted') return adminCall(recordSanctionsHitDelisted, request, { notify: false });
  return adminCall(markSanctionsHitFalsePositive, request, { notify: false });
}

/**
 * The hit leaves its list. Confirming may have put the account on hold again, and a delisting changes the
 * hold's reason, so the customer's case and page are read again too, as after any decision on them (and
 * the audit log with them).
 */
export function useReviewHit(hitId: number, decision: HitDecision) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => reviewHit(hitId, decision, note),
    onSuccess: ({ data }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SANCTIONS_HITS_QUERY_KEY }),
        refreshAfterDecision(queryClient, data.user_id),
      ]),
  });
}
