import { deleteApiToken } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKEN_KEYS } from './get-api-tokens';

/** Soft delete: the token stops working at once and stays listed, struck through. */
export function deleteToken(tokenId: string) {
  return apiCall(deleteApiToken, { params: { id: tokenId } }, { notify: false });
}

export function useDeleteApiToken(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteToken,
    // Settled, not only succeeded: a 409 (deleted elsewhere meanwhile) also means the list is out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKEN_KEYS.list(userId) }),
  });
}
