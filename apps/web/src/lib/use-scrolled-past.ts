import { useEffect, useState } from 'react';

/**
 * Whether the window has scrolled more than `threshold` pixels. It changes
 * state only when the answer flips, so scrolling does not re-render the page.
 */
export function useScrolledPast(threshold: number): boolean {
  const [isPast, setIsPast] = useState(false);
  useEffect(() => {
    const update = () => setIsPast(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return isPast;
}
