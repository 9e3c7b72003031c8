import { entry } from './shared.js';

const NEWSLETTER_FOOTER =
  'Florin Ltd · You receive this email because this address was entered in the Florin newsletter sign-up.';

/** Product news to customers who asked for it, and the newsletter sign-up mails. */
export const MARKETING_NOTIFICATIONS = {
  // ---- the Alerts switches' own mails (issue 10) ----
  /** Product news and offers; issue 12's newsletter sends it. */
  marketing_news: entry<{ firstName: string; title: string; paragraphs: string[]; url?: string }>({
    optional: 'marketing_notifications',
    render: ({ firstName, title, paragraphs, url }) => ({
      subject: title,
      paragraphs: [
        `Hello ${firstName},`,
        ...paragraphs,
        'You receive this because marketing notifications are on. Switch them off under Account, Alerts.',
      ],
      ...(url ? { action: { label: 'Read more', url } } : {}),
    }),
  }),
  // ---- the newsletter (issue 12): mailed to an address, which need not be a customer's (notifyAddress) ----
  newsletter_confirm: entry<{ confirmUrl: string; unsubscribeUrl: string; days: number }>({
    render: ({ confirmUrl, unsubscribeUrl, days }) => ({
      subject: 'Please confirm your newsletter subscription',
      paragraphs: [
        'Hello,',
        `Someone, probably you, asked to receive the Florin newsletter at this email address. Please confirm with the link below. It works once, for ${days} days.`,
        'If this was not you, ignore this email: we send the newsletter only to addresses that confirm.',
      ],
      action: { label: 'Confirm subscription', url: confirmUrl },
      footer: { text: NEWSLETTER_FOOTER, unsubscribeUrl },
    }),
  }),
  newsletter_already_subscribed: entry<{ unsubscribeUrl: string }>({
    render: ({ unsubscribeUrl }) => ({
      subject: 'You are already subscribed to the Florin newsletter',
      paragraphs: [
        'Hello,',
        'Someone, probably you, asked to receive the Florin newsletter at this email address. It is already subscribed, so nothing was changed.',
        'If you no longer want the newsletter, unsubscribe with the link below.',
      ],
      footer: { text: NEWSLETTER_FOOTER, unsubscribeUrl },
    }),
  }),
} as const;
