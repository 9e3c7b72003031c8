import { deleteAdminMotd } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshMotdList } from './list-motds';

export function withdrawMotd(id: string) {
  return adminCall(deleteAdminMotd, { params: { id } }, { errorTitle: 'Message not deleted' });
}

export function useWithdrawMotd() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdrawMotd, onSuccess: () => refreshMotdList(queryClient) });
}
