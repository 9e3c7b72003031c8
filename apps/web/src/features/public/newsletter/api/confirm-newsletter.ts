import { confirmNewsletter } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

/** The confirmation page shows the outcome itself, success or failure (newsletter-confirm-page.tsx). */
export function confirmNewsletterSubscription(token: string): Promise<{ message: string }> {
  return apiCall(confirmNewsletter, { params: { token } }, { notify: false });
}

export function useConfirmNewsletterSubscription() {
  return useMutation({ mutationFn: confirmNewsletterSubscription });
}
