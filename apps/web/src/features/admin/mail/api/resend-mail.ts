import { resendMail } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshFailedMail } from './list-failed-mail';

export function sendMailAgain(id: string) {
  return adminCall(resendMail, { params: { id } }, { errorTitle: 'Email not resent' });
}

export function useResendMail() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: sendMailAgain, onSuccess: () => refreshFailedMail(queryClient) });
}
