import { fetchIpWhitelist, type WhitelistedIp } from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { WHITELIST_KEYS } from './whitelist-keys';

export type WhitelistedIpPage = { data: WhitelistedIp[]; total: number; current_ip: string };

/** The newest `limit` whitelisted IPs of the customer `owner` (their user_identification) and the IP they use now. */
export function whitelistedIpsQuery(owner: string, limit: number) {
  return queryOptions({
    queryKey: WHITELIST_KEYS.ipList(owner, limit),
    queryFn: ({ signal }): Promise<WhitelistedIpPage> =>
      apiCall(fetchIpWhitelist, { params: { userId: owner }, query: { limit } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useWhitelistedIps(owner: string, limit: number) {
  return useQuery(whitelistedIpsQuery(owner, limit));
}
