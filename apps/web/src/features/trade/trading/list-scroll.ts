/** Spec 002 section 2.4: the next page loads when the list is scrolled to within 100 px of its end. */
export const LOAD_MORE_THRESHOLD_PX = 100;

/** Whether a scrolled box is within the threshold of its end. */
export function isNearEnd(
  box: { scrollTop: number; scrollHeight: number; clientHeight: number },
  threshold = LOAD_MORE_THRESHOLD_PX,
): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= threshold;
}
