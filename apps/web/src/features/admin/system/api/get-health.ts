import { getHealth, type Health } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

/** How often the screen asks again: a feed that falls silent shows within a few seconds. */
const REFRESH_MS = 5_000;

export function healthQuery() {
  return queryOptions({
    queryKey: ['admin', 'system', 'health'] as const,
    queryFn: async ({ signal }): Promise<Health> => adminCall(getHealth, {}, { signal }),
    refetchInterval: REFRESH_MS,
  });
}

export function useHealth() {
  return useQuery(healthQuery());
}
