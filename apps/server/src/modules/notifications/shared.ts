/*
 * What the catalogue's parts (catalogue-account.ts, catalogue-withdrawals.ts, ...) share: the shape of
 * a rendered mail and of an entry. catalogue.ts combines the parts into the one catalogue.
 */

/** A mail in words, before render.ts lays it out. */
export type Rendered = {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /**
   * Why the reader gets this mail, in place of the customer footer; with an unsubscribe link for
   * mail that is not about a Florin account (the newsletter's).
   */
  footer?: { text: string; unsubscribeUrl?: string };
};

export type Entry<D> = {
  optional?:
    'login_notifications' | 'loginout_notifications' | 'marketing_notifications' | 'trade_notifications';
  render: (data: D) => Rendered;
};

export const entry = <D>(value: Entry<D>) => value;
