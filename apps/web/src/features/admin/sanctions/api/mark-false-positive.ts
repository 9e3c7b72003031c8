import { markSanctionsHitFalsePositive } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { AUDIT_LOG_QUERY_KEY } from '../../api/list-audit-log';
import { SANCTIONS_HITS_QUERY_KEY } from './list-hits';

/** The note modal shows a refused note under its field, so failures are not toasted here. */
export function markFalsePositive(hitId: number, note: string) {
  return adminCall(
    markSanctionsHitFalsePositive,
    { params: { id: hitId }, body: { note } },
    { notify: false },
  );
}

/** The hit leaves the open list; the hold stays, so the customer's pages do not change. */
export function useMarkFalsePositive(hitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => markFalsePositive(hitId, note),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SANCTIONS_HITS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
      ]),
  });
}
