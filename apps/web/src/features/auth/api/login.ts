import { login, login2fa, type LoginResponse } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client';

export type LoginInput = { username: string; password: string; altcha: string };
type Session = z.infer<(typeof login2fa.responses)[200]>;

/** The answer when a second factor is still needed: no session yet, only a token for /login-2fa. */
export type SecondFactorChallenge = Extract<LoginResponse, { login_token: string }>;

export function needsSecondFactor(response: LoginResponse): response is SecondFactorChallenge {
  return 'login_token' in response;
}

/** The screen shows each failure its own way (the unverified-email box, the captcha reset), so nothing is toasted here. */
export function signIn(body: LoginInput): Promise<LoginResponse> {
  return apiCall(login, { body }, { notify: false });
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

export function signInSecondFactor(body: { login_token: string; passcode: string }): Promise<Session> {
  return apiCall(login2fa, { body }, { notify: false });
}

export function useSignInSecondFactor() {
  return useMutation({ mutationFn: signInSecondFactor });
}
