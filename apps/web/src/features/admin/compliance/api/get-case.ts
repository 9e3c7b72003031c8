import { getComplianceCase, type ComplianceCase } from '@florin/contracts';
import { adminCall } from '../../api/admin-client';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { AUDIT_LOG_QUERY_KEY } from '../../api/list-audit-log';
import { COMPLIANCE_QUEUE_QUERY_KEY } from './list-queue';

export const complianceCaseKey = (userId: number) => ['admin', 'compliance', 'case', userId] as const;

export function complianceCaseQuery(userId: number) {
  return queryOptions({
    queryKey: complianceCaseKey(userId),
    queryFn: async ({ signal }): Promise<ComplianceCase> =>
      (await adminCall(getComplianceCase, { params: { userId } }, { signal })).data,
  });
}

export function useComplianceCase(userId: number) {
  return useQuery(complianceCaseQuery(userId));
}

/**
 * After any decision on a customer: their case, the queue (they may leave
 * it), their customer page (same facts) and the audit log (a new row).
 */
export function refreshAfterDecision(queryClient: QueryClient, userId: number): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: complianceCaseKey(userId) }),
    queryClient.invalidateQueries({ queryKey: COMPLIANCE_QUEUE_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'customers', userId] }),
    queryClient.invalidateQueries({ queryKey: AUDIT_LOG_QUERY_KEY }),
  ]);
}
