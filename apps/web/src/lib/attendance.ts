import { UNATTENDED_HEADER } from '@florin/contracts';

/** How long after the last key, click, touch, wheel or return to the tab the app still counts as attended. */
const ATTENDED_FOR_MS = 60_000;

/** When someone last used the app in this tab; loading it counts (someone opened it). */
let lastUsedAt = Date.now();

const markUsed = () => {
  lastUsedAt = Date.now();
};

// Not when a public page is drawn at build time (prerender.tsx): there is no window, and nobody.
if (typeof window !== 'undefined') {
  // Click and input too: assistive technology and voice control may send neither pointer nor key events.
  for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart', 'click', 'input', 'focus'] as const) {
    window.addEventListener(type, markUsed, { capture: true, passive: true });
  }
  // Coming back to the tab: the queries refetch on this event, before the window's focus arrives.
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'visible') markUsed();
    },
    { capture: true },
  );
}

/**
 * The header of a request sent a minute or more after anyone used the screen: the page refreshing
 * itself (open orders, a payouts queue, the house position), marked so that the server does not count
 * it as the person's activity, and an unattended session still ends when it has been idle too long
 * (30 minutes for a customer, 15 for staff).
 */
export function attendanceHeaders(): Record<string, string> {
  return Date.now() - lastUsedAt >= ATTENDED_FOR_MS ? { [UNATTENDED_HEADER]: '1' } : {};
}
