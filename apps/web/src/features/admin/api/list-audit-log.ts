import { listAuditLog, type AuditEntry, type Page } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from './admin-client';

/** The prefix of every audit log page: a staff change adds a row to all of them. */
export const AUDIT_LOG_QUERY_KEY = ['admin', 'audit-log'] as const;

export type AuditLogFilter = { page: number; target_type?: string; target_id?: string };

export function auditLogQuery(filter: AuditLogFilter) {
  return queryOptions({
    queryKey: [...AUDIT_LOG_QUERY_KEY, filter] as const,
    queryFn: async ({ signal }): Promise<Page<AuditEntry>> =>
      adminCall(listAuditLog, { query: filter }, { signal }),
    // Paging keeps the old rows on screen until the new ones arrive, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useAuditLog(filter: AuditLogFilter) {
  return useQuery(auditLogQuery(filter));
}
