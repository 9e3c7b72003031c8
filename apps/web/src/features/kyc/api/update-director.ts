import { KYC_TEXTS, updateDirector, type DirectorBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';

export type ChangeDirectorInput = { id: number; body: DirectorBody };

export function changeDirector({ id, body }: ChangeDirectorInput) {
  return apiCall(updateDirector, { params: { id }, body }, { errorTitle: KYC_TEXTS.directorFailedTitle });
}

export function useChangeDirector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeDirector,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
