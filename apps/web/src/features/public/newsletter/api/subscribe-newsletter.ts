import { subscribeNewsletter, type NewsletterSignUpBody } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

/** The form shows failures itself, beside the field (newsletter-form.tsx). */
export function signUpToNewsletter(body: NewsletterSignUpBody): Promise<{ message: string }> {
  return apiCall(subscribeNewsletter, { body }, { notify: false });
}

export function useSignUpToNewsletter() {
  return useMutation({ mutationFn: signUpToNewsletter });
}
