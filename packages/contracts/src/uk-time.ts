const UK_DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/London',
});

/** A moment as a UK customer reads it: "29 November 2026 at 10:00 (UK time)", never an ISO timestamp. */
export function ukDateTime(moment: Date): string {
  return `${UK_DATE_TIME.format(moment)} (UK time)`;
}

/** A refusal that ends when a wait is over: the text, then the moment it ends, as the customer reads it. */
export function waitUntilText(text: string, until: Date): string {
  return `${text} ${ukDateTime(until)}.`;
}
