import type { AppError } from '@florin/contracts';
import { useSyncExternalStore } from 'react';
import { formatDateTime } from './format';

/** A refusal for too many attempts, kept until the page changes or the wait is over. */
export type RateLimitNotice = {
  /** The page it happened on: another page's forms are not limited by it. */
  path: string;
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
 * ("… You can try again from 6 December 2026, 15:05 GMT.").
 */
export function describeRateLimit(message: string, until: string | null): string {
  const when = until ? formatDateTime(until) : undefined;
  return when ? `${message} You can try again from ${when}.` : message;
}

/** Remembers a 429 for the page in view (lib/errors.ts calls it instead of a toast that would vanish). */
export function noteRateLimit(error: AppError, now = Date.now()): void {
  const seconds = retryAfterSeconds(error);
  publish({
    path: globalThis.location?.pathname ?? '/',
    message: error.message,
    until: seconds === null ? null : new Date(now + seconds * 1000).toISOString(),
  });
}

export function clearRateLimit(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The notice for the page at `path`, if one is on. */
export function useRateLimitNotice(path: string): RateLimitNotice | null {
  const current = useSyncExternalStore(
    subscribe,
    () => notice,
    () => null,
  );
  return current && current.path === path ? current : null;
}
