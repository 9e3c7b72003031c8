/** The message of the day shows for 60 seconds, paused while hovered (spec 000 section 9). */
export const MOTD_DURATION_MS = 60_000;

/** The session storage key holding the ids of the messages already shown in this session. */
export const MOTD_SEEN_KEY = 'motd-seen';

type SessionStore = Pick<Storage, 'getItem' | 'setItem'>;

function readSeen(store: SessionStore): string[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(MOTD_SEEN_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether the message has shown in this session already; a store that cannot be read counts as "not yet". */
export function hasSeenMotd(store: SessionStore, id: string): boolean {
  return readSeen(store).includes(id);
}

/** Remembers that the message has shown; the last 20 are kept, which is more than are ever live at once. */
export function markMotdSeen(store: SessionStore, id: string): void {
  const seen = readSeen(store).filter((entry) => entry !== id);
  seen.push(id);
  try {
    store.setItem(MOTD_SEEN_KEY, JSON.stringify(seen.slice(-20)));
  } catch {
    // A full or blocked store: the message may show again after a reload, which is harmless.
  }
}

/** Time left after `elapsedMs` of unpaused showing, as a whole percentage for the progress bar. */
export function remainingPercent(remainingMs: number, durationMs = MOTD_DURATION_MS): number {
  return Math.max(0, Math.min(100, (remainingMs / durationMs) * 100));
}
