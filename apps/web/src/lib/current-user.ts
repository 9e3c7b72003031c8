import { getUser, type User } from '@florin/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './api-client';

/** The signed-in user, as `GET /api/v1/user` gives it. Every signed-in screen reads it from here. */
export const currentUserQuery = queryOptions({
  queryKey: ['user'] as const,
  queryFn: async ({ signal }): Promise<User> => (await apiCall(getUser, {}, { signal })).data,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** For a change that alters the user (2FA on or off, a pending e-mail): fetch it again. */
export function useRefreshCurrentUser(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
}

/** Live: staff made the account live after identity verification (status 1). */
export function isLive(user: User): boolean {
  return user.status === 1;
}

/** On hold by compliance (block_status 2): a banner, and no money movement. */
export function isOnHold(user: User): boolean {
  return user.block_status === 2;
}

/** Active (spec 000 section 4): live and not on hold. Only then does the navigation show. */
export function isAccountActive(user: User): boolean {
  return isLive(user) && !isOnHold(user);
}

/** 2FA is on (the spec's disable_{product}_2fa = 1: a second factor is required). */
export function hasTwoFactor(user: User): boolean {
  return user.disable_florin_2fa === 1;
}
