import { listSanctionsHits, type Page, type SanctionsHit, type SanctionsHitStatus } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const SANCTIONS_HITS_QUERY_KEY = ['admin', 'sanctions', 'hits'] as const;

export type SanctionsHitsFilter = { page: number; status: SanctionsHitStatus };

export function sanctionsHitsQuery(filter: SanctionsHitsFilter) {
  return queryOptions({
    queryKey: [...SANCTIONS_HITS_QUERY_KEY, filter] as const,
    queryFn: async ({ signal }): Promise<Page<SanctionsHit>> =>
      adminCall(listSanctionsHits, { query: filter }, { signal }),
    // Paging keeps the old rows on screen until the new ones arrive, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useSanctionsHits(filter: SanctionsHitsFilter) {
  return useQuery(sanctionsHitsQuery(filter));
}
