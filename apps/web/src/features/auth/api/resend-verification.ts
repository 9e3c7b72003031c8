import { resendVerification } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { showSuccessToast } from '../../../lib/toasts';

export function resendVerificationEmail(userId: number): Promise<{ message: string }> {
  return apiCall(resendVerification, { params: { userId } });
}

export function useResendVerificationEmail() {
  return useMutation({
    mutationFn: resendVerificationEmail,
    onSuccess: ({ message }) => showSuccessToast({ title: 'Email sent', message }),
  });
}
