import { AUTH_TEXTS } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import { loginBannerFor } from './login-banner';

const bannerFor = (query: string) => loginBannerFor(new URLSearchParams(query));

describe('loginBannerFor', () => {
  it('says the e-mail was updated for email_change=success', () => {
    expect(bannerFor('email_change=success')).toEqual({
      tone: 'success',
      text: 'Email Updated Successfully!',
    });
  });

  it('says the account was verified for any other success', () => {
    expect(bannerFor('user_verified=success')).toEqual({
      tone: 'success',
      text: 'Account Successfully Verified!',
    });
    expect(bannerFor('anything=success')?.text).toBe(AUTH_TEXTS.verifySuccessBanner);
  });

  it('names the verification failure for user_verified=error', () => {
    expect(bannerFor('user_verified=error')).toEqual({
      tone: 'error',
      text: 'Verification Token Not Found or User Already Verified!',
    });
  });

  it('calls any other error an invalid e-mail token', () => {
    expect(bannerFor('email_change=error')).toEqual({ tone: 'error', text: 'Invalid Email Reset Token!' });
    expect(bannerFor('other=error')?.text).toBe(AUTH_TEXTS.emailTokenInvalidBanner);
  });

  it('shows nothing for other query values', () => {
    expect(bannerFor('')).toBeUndefined();
    expect(bannerFor('ref=ABC&user_verified=maybe')).toBeUndefined();
  });
});
