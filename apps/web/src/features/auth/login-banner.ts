import { AUTH_TEXTS, CLOSURE_TEXTS } from '@florin/contracts';

export type LoginBanner = { tone: 'success' | 'error'; text: string };

/**
 * The banner the login screen shows for `?<action>=success|error` (spec 002
 * section 2.11): e-mail verification and e-mail change links land there, and
 * a customer who has just closed their account (issue 13).
 */
export function loginBannerFor(params: URLSearchParams): LoginBanner | undefined {
  for (const [action, result] of params) {
    if (action === 'account_closed' && result === 'success')
      return { tone: 'success', text: CLOSURE_TEXTS.closed };
    if (result === 'success') {
      return {
        tone: 'success',
        text: action === 'email_change' ? AUTH_TEXTS.emailChangedBanner : AUTH_TEXTS.verifySuccessBanner,
      };
    }
    if (result === 'error') {
      return {
        tone: 'error',
        text: action === 'user_verified' ? AUTH_TEXTS.verifyErrorBanner : AUTH_TEXTS.emailTokenInvalidBanner,
      };
    }
  }
  return undefined;
}
