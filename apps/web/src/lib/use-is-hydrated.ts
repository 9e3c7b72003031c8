import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in a page drawn at build time (prerender.tsx) and while React takes
 * it over, true from then on and in every page drawn in the browser. A
 * control that does nothing without React (a form's button, a menu's) is
 * disabled until then, so a tap before the scripts arrive is not lost, and a
 * form is not submitted by the browser into the address bar.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
