import { createDirector, KYC_TEXTS, type DirectorBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';

export function addDirector(body: DirectorBody) {
  return apiCall(createDirector, { body }, { errorTitle: KYC_TEXTS.directorFailedTitle });
}

/** The new director comes back in the user's company: the user is fetched again. */
export function useAddDirector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDirector,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
