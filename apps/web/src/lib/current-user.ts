import { getUser, type User } from '@florin/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './api-client';

/** The signed-in user, as `GET /api/v1/user` gives it. Every signed-in screen reads it from here. */
export const currentUserQuery = queryOptions({
  queryKey: ['user'] as const,
  queryFn: async ({ signal }): Promise<User> => (await apiCall(getUser, {}, { signal })).data,
  // Read again every minute: a screen left open learns that its session ended (the server's idle end;
  // unattended, this request does not keep it going), or that staff made the account live or held it.
  refetchInterval: 60_000,
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
export function isLive(user: Pick<User, 'status'>): boolean {
  return user.status === 1;
}

/** On hold by compliance (block_status 2): a banner, and no money movement. */
export function isOnHold(user: Pick<User, 'block_status'>): boolean {
  return user.block_status === 2;
}

/** Active (spec 000 section 4): live and not on hold. Only then does the navigation show. */
export function isAccountActive(user: Pick<User, 'status' | 'block_status'>): boolean {
  return isLive(user) && !isOnHold(user);
}

/**
 * Which money buttons a customer may use: all of them when active; only withdrawing once the firm's
 * notice of termination has run (DECISIONS.md: a terminated customer may only withdraw for 60 days);
 * none while not live or on hold.
 */
export type MoneyActions = 'all' | 'withdraw' | 'none';

export function moneyActions(
  user: Pick<User, 'status' | 'block_status' | 'terminated_at'>,
  now = Date.now(),
): MoneyActions {
  if (!isAccountActive(user)) return 'none';
  return user.terminated_at !== null && Date.parse(user.terminated_at) <= now ? 'withdraw' : 'all';
}

/** Every verification step handed in (spec 000 section 4's four flags). */
export function isFullyVerified(
  user: Pick<
    User,
    'is_kyc_submitted' | 'is_wealth_submitted' | 'is_photo_id_submitted' | 'is_proof_address_submitted'
  >,
): boolean {
  return (
    user.is_kyc_submitted === 1 &&
    user.is_wealth_submitted === 1 &&
    user.is_photo_id_submitted === 1 &&
    user.is_proof_address_submitted === 1
  );
}

/**
 * The top navigation shows (spec 000 section 4): active, every step handed in, nothing declined.
 * A live customer whose new address awaits a new proof of address is back to Getting Started.
 */
export function showsNavigation(user: User): boolean {
  return isAccountActive(user) && isFullyVerified(user) && user.denied_documents === 0;
}

/** 2FA is on (the spec's disable_{product}_2fa = 1: a second factor is required). */
export function hasTwoFactor(user: User): boolean {
  return user.disable_florin_2fa === 1;
}
