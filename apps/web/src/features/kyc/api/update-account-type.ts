import { updateAccountType, type AccountTypeBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';

export function saveAccountType(body: AccountTypeBody) {
  return apiCall(updateAccountType, { body });
}

/** Individual or Corporate (step 2); the user is fetched again so the wizard knows its route. */
export function useSaveAccountType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAccountType,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}

/**
 * Instant or Trade (step 10). The user is not fetched here: the completion dialog comes first,
 * and what happens on its close (a reload or a sign-out) is the screen's.
 */
export function useChooseAccount() {
  return useMutation({ mutationFn: saveAccountType });
}
