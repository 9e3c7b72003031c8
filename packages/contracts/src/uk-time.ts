const UK_DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
  timeZoneName: 'short',
});

/**
 * A moment as a UK customer reads it, on every screen and in every message
 * whose format the spec does not fix: `6 December 2026, 14:05 GMT` (BST in
 * summer), never an ISO timestamp. Built from parts because Intl puts "at"
 * between date and time. Unreadable input gives undefined.
 */
export function formatUkDateTime(value: Date | string): string | undefined {
  const moment = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(moment.getTime())) return undefined;
  const part = Object.fromEntries(
    UK_DATE_TIME.formatToParts(moment).map(({ type, value: text }) => [type, text]),
  );
  return `${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

/** formatUkDateTime of a moment the server holds, so always readable. */
export function ukDateTime(moment: Date): string {
  return formatUkDateTime(moment) ?? moment.toISOString();
}

/** A refusal that ends when a wait is over: the text, then the moment it ends, as the customer reads it. */
export function waitUntilText(text: string, until: Date): string {
  return `${text} ${ukDateTime(until)}.`;
}
