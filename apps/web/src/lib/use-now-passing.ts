import { EMAILED_CODE_MINUTES } from '@florin/contracts';
import { useEffect, useState } from 'react';

/** setTimeout's longest delay (about 24.8 days); a later moment is waited for in steps. */
const LONGEST_DELAY_MS = 2_147_483_647;

/**
 * The time now (ms), read again as each of these moments passes: a wait the
 * page shows (withdrawals paused until, an address usable from) ends on screen
 * when it ends, not at the next fetch. Re-renders only at those moments.
 */
export function useNowPassing(moments: readonly (string | null | undefined)[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = moments
    .map((moment) => (moment ? Date.parse(moment) : Number.NaN))
    .filter((time) => time > now)
    .reduce((earliest, time) => Math.min(earliest, time), Number.POSITIVE_INFINITY);
  // `now` too: a capped wait that ends short of the moment sets it, and the next step is armed.
  useEffect(() => {
    if (next === Number.POSITIVE_INFINITY) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 1, LONGEST_DELAY_MS));
    return () => clearTimeout(timer);
  }, [next, now]);
  return now;
}

/** Whether a wait ending at `moment` is still on at `now` (an absent or unreadable moment is no wait). */
export function isWaiting(moment: string | null | undefined, now: number): moment is string {
  return Boolean(moment) && Date.parse(moment ?? '') > now;
}

/**
 * Whether a code e-mailed at `sentAt` has expired (EMAILED_CODE_MINUTES later, as the server counts), turning
 * true when it does: spec 001 shows Resend once the code has expired, not only after a refused try. `sentAt` is
 * read from this browser's clock when the answer that sent the code arrived, never from the server's.
 */
export function useHasCodeExpired(sentAt: string | null): boolean {
  const expiresAt = sentAt
    ? new Date(Date.parse(sentAt) + EMAILED_CODE_MINUTES * 60_000).toISOString()
    : null;
  const now = useNowPassing([expiresAt]);
  return expiresAt !== null && !isWaiting(expiresAt, now);
}
