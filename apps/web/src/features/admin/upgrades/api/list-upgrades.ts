import { listPlatformUpgrades, UPGRADES_PAGE_SIZE } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export function upgradesQuery(skip: number) {
  return queryOptions({
    queryKey: ['admin', 'upgrades', skip] as const,
    queryFn: ({ signal }) =>
      adminCall(listPlatformUpgrades, { query: { skip, take: UPGRADES_PAGE_SIZE } }, { signal }),
  });
}

export function useUpgrades(skip: number) {
  return useQuery({ ...upgradesQuery(skip), placeholderData: keepPreviousData });
}
