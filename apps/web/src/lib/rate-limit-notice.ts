import { RATE_LIMIT_TEXTS, waitUntilText, type AppError } from '@florin/contracts';
import { useSyncExternalStore } from 'react';

/** A refusal for too many attempts, kept until the page changes or the wait is over. */
export type RateLimitNotice = {
  /** The page it happened on: another page's forms are not limited by it. */
  path: string;
  /** The screen's own title for its failures (e.g. "Login Failed!"), else the one for any 429. */
  title: string;
  message: string;
  /** When the server said to try again (Retry-After), if it said. */
  until: string | null;
};

let notice: RateLimitNotice | null = null;
const listeners = new Set<() => void>();

function publish(next: RateLimitNotice | null): void {
  notice = next;
  for (const listener of listeners) listener();
}

/** The seconds a 429 asked the client to wait: the Retry-After header, carried in the error's data. */
export function retryAfterSeconds(error: AppError): number | null {
  const seconds = Number(error.data?.retry_after);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/**
 * What the limit notice says: what happened and when to try again
 * ("… You can try again from 6 December 2026, 15:05 GMT."). The abuse limits
 * name the moment themselves (the one Retry-After counts down to); other 429s get it added.
 */
export function describeRateLimit(message: string, until: string | null): string {
  if (until === null || message.includes(RATE_LIMIT_TEXTS.tryAgainFrom)) return message;
  return waitUntilText(`${message} ${RATE_LIMIT_TEXTS.tryAgainFrom}`, new Date(until));
}

/**
 * Remembers a 429 for the page in view, under `title`: lib/errors.ts calls it
 * instead of a toast that would vanish. Returns what the page's alert shows.
 */
export function noteRateLimit(error: AppError, title: string, now = Date.now()): RateLimitNotice {
  const seconds = retryAfterSeconds(error);
  const next: RateLimitNotice = {
    path: globalThis.location?.pathname ?? '/',
    title,
    message: error.message,
    until: seconds === null ? null : new Date(now + seconds * 1000).toISOString(),
  };
  publish(next);
  return next;
}

export function clearRateLimit(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The notice on now, whichever page it is for. */
export function currentRateLimitNotice(): RateLimitNotice | null {
  return notice;
}

/** The notice for the page at `path`, if one is on. */
export function useRateLimitNotice(path: string): RateLimitNotice | null {
  const current = useSyncExternalStore(subscribe, currentRateLimitNotice, () => null);
  return current && current.path === path ? current : null;
}
