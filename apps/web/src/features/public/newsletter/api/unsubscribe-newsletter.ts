import { unsubscribeNewsletter } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

/** The unsubscribe page shows the outcome itself (newsletter-unsubscribe-page.tsx). */
export function unsubscribeFromNewsletter(token: string): Promise<{ message: string }> {
  return apiCall(unsubscribeNewsletter, { params: { token } }, { notify: false });
}

export function useUnsubscribeFromNewsletter() {
  return useMutation({ mutationFn: unsubscribeFromNewsletter });
}
