import { listApiTokens } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** The API tab's query keys: generating and deleting change the list, nothing else. */
export const API_TOKEN_KEYS = {
  list: (userId: number) => ['api-tokens', userId] as const,
};

/** The customer's tokens, newest first, masked, deleted ones included (struck through). */
export function apiTokensQuery(userId: number) {
  return queryOptions({
    queryKey: API_TOKEN_KEYS.list(userId),
    queryFn: async ({ signal }) =>
      (await apiCall(listApiTokens, { params: { user_id: userId } }, { signal, notify: false })).data,
  });
}

export function useApiTokens(userId: number) {
  return useQuery(apiTokensQuery(userId));
}
