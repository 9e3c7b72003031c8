import { entry } from './shared.js';

/** Money arriving in the balance: fiat and crypto deposits credited, and term deposits paid back. */
export const DEPOSIT_NOTIFICATIONS = {
  fiat_deposit_credited: entry<{ firstName: string; amount: string; currency: string }>({
    render: ({ firstName, amount, currency }) => ({
      subject: 'Your deposit has arrived',
      paragraphs: [
        `Hello ${firstName},`,
        `${amount} ${currency} from your bank transfer is now in your balance.`,
      ],
    }),
  }),
  crypto_deposit_credited: entry<{ firstName: string; amount: string; coin: string; txid: string }>({
    render: ({ firstName, amount, coin, txid }) => ({
      subject: 'Your deposit has arrived',
      paragraphs: [
        `Hello ${firstName},`,
        `${amount} ${coin} you sent to your Florin deposit address is confirmed and now in your balance.`,
        `Transaction: ${txid}`,
      ],
    }),
  }),
  /** A term deposit paid back with its interest (issue 11; DECISIONS.md: always sent). */
  term_deposit_matured: entry<{
    firstName: string;
    coin: string;
    amount: string;
    interest: string;
    total: string;
    url: string;
  }>({
    render: ({ firstName, coin, amount, interest, total, url }) => ({
      subject: 'Your term deposit has matured',
      paragraphs: [
        `Hello ${firstName},`,
        `Your term deposit of ${amount} ${coin} has matured. We have paid back ${amount} ${coin} with ${interest} ${coin} interest: ${total} ${coin} is now in your available balance.`,
      ],
      action: { label: 'See your term deposits', url },
    }),
  }),
} as const;
