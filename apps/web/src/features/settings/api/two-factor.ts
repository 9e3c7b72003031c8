import { generateTwoFactor, toggleTwoFactor } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type TwoFactorSecret = { secret: string; qr_url: string };

/**
 * A new secret to scan. Each call replaces the pending one on the server, so
 * it is a mutation the screen calls once per setup, never a query that could
 * refetch behind the customer's back.
 */
export async function createTwoFactorSecret(): Promise<TwoFactorSecret> {
  return (await apiCall(generateTwoFactor)).data;
}

export function useCreateTwoFactorSecret() {
  return useMutation({ mutationFn: createTwoFactorSecret });
}

/** 0 turns 2FA on (with a code from the new secret), 1 turns it off (with a current code). */
export type ToggleTwoFactorInput = { passcode: string; disable_2fa: 0 | 1 };

/** The screen reports failures: a wrong code clears the digits as well. */
export function switchTwoFactor(body: ToggleTwoFactorInput) {
  return apiCall(toggleTwoFactor, { body }, { notify: false });
}

/** On success the user's disable_florin_2fa flips: the caller refreshes the user, which moves the tab between its pages. */
export function useSwitchTwoFactor() {
  return useMutation({ mutationFn: switchTwoFactor });
}
