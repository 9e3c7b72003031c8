import { useSyncExternalStore } from 'react';
import { deleteCookie, readCookie, writeCookie } from './cookies';

/** Spec 002 §2.13 and §9: the choice lives in the `cookie-consent` cookie for 150 days. */
export const CONSENT_COOKIE = 'cookie-consent';
const CONSENT_DAYS = 150;

/** Spec 002 §2.9 and §9: the referral code from a referral link is kept 14 days. */
export const REFERRAL_COOKIE = 'florin_ref';
const REFERRAL_DAYS = 14;

export type CookieConsent = 'allow' | 'deny';

const listeners = new Set<() => void>();

function readConsent(): CookieConsent | null {
  const value = readCookie(CONSENT_COOKIE);
  return value === 'allow' || value === 'deny' ? value : null;
}

/**
 * The visitor's answer to the cookie bar: null until they choose. Only the
 * session and CSRF cookies, which the site cannot work without, are set
 * before an Allow (docs/decisions/061-landing-page-and-cookie-consent.md).
 * Undefined while it cannot be known: in a page drawn at build time
 * (prerender.tsx) and the hydration of it, so a returning visitor never
 * sees the bar flash up.
 */
export function useCookieConsent(): CookieConsent | null | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readConsent,
    () => undefined,
  );
}

export function chooseCookieConsent(choice: CookieConsent): void {
  writeCookie(CONSENT_COOKIE, choice, CONSENT_DAYS);
  if (choice === 'deny') deleteCookie(REFERRAL_COOKIE);
  for (const listener of listeners) listener();
}

/** Takes the choice back (UK GDPR: withdrawing consent as easy as giving it): the bar asks again. */
export function forgetCookieConsent(): void {
  deleteCookie(CONSENT_COOKIE);
  deleteCookie(REFERRAL_COOKIE);
  for (const listener of listeners) listener();
}

/** Keeps a referral code for a later visit, only with the visitor's consent. */
export function rememberReferralCode(code: string): void {
  if (readConsent() === 'allow') writeCookie(REFERRAL_COOKIE, code, REFERRAL_DAYS);
}

export function rememberedReferralCode(): string | undefined {
  return readCookie(REFERRAL_COOKIE);
}

/** After a successful registration the code has done its job (spec 002 §2.9). */
export function forgetReferralCode(): void {
  deleteCookie(REFERRAL_COOKIE);
}
