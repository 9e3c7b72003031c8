import type { AdminMotd } from '@florin/contracts';

/**
 * A datetime-local input's value ("2026-11-23T14:05", the browser's own
 * time, the UK for staff) as an ISO instant; undefined when unreadable.
 */
export function fromLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as a datetime-local input shows it, in the browser's time, to the minute. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export type MotdStatus = 'Showing' | 'Scheduled' | 'Ended';

/** Whether customers see the message at `now`: between its start (inclusive) and end (exclusive). */
export function motdStatus(motd: Pick<AdminMotd, 'starts_at' | 'ends_at'>, now: Date): MotdStatus {
  if (now.getTime() < Date.parse(motd.starts_at)) return 'Scheduled';
  if (now.getTime() >= Date.parse(motd.ends_at)) return 'Ended';
  return 'Showing';
}
