import { deleteDirector, KYC_TEXTS } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { reportError, toAppError } from '../../../lib/errors';
import { currentUserQuery } from '../../../lib/current-user';
import { showErrorToast } from '../../../lib/toasts';

/** Spec 000 section 8: any failure to delete reads "Error: Failed to delete director/owner.". */
export async function removeDirector(id: number) {
  try {
    return await apiCall(deleteDirector, { params: { id } }, { notify: false });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === 'UNAUTHENTICATED' || appError.status >= 500) reportError(appError);
    else showErrorToast({ title: KYC_TEXTS.deleteDirectorFailed, message: appError.message });
    throw appError;
  }
}

export function useRemoveDirector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDirector,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
