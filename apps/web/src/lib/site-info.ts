import { getSiteInfo, type SiteInfo } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';

/** Contacts and external links from the server's configuration (`GET /api/v1/site`); unset links are hidden. */
export const siteInfoQuery = queryOptions({
  queryKey: ['site-info'] as const,
  // Only decoration depends on it, so a failure leaves the links out rather than toasting every visitor.
  queryFn: ({ signal }): Promise<SiteInfo> => apiCall(getSiteInfo, {}, { signal, notify: false }),
  staleTime: Infinity,
});

export function useSiteInfo() {
  return useQuery(siteInfoQuery);
}
