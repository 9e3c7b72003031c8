import { entry } from './shared.js';

/** Money leaving: withdrawal codes, bank accounts and whitelisted wallets, fiat and crypto withdrawals, referral claims. */
export const WITHDRAWAL_NOTIFICATIONS = {
  withdrawal_code: entry<{
    firstName: string;
    code: string;
    purpose: string;
    isWithdrawal: boolean;
    minutes: number;
  }>({
    render: ({ firstName, code, purpose, isWithdrawal, minutes }) => ({
      subject: isWithdrawal ? 'Your withdrawal code' : 'Your confirmation code',
      paragraphs: [
        `Hello ${firstName},`,
        `Your code for ${purpose} is ${code}. It works once, for ${minutes} minutes.`,
        'If you did not ask for it, do not share it with anyone, change your password and contact support.',
      ],
    }),
  }),
  bank_account_saved: entry<{ firstName: string; currency: string; ending: string; isNew: boolean }>({
    render: ({ firstName, currency, ending, isNew }) => ({
      subject: isNew ? 'A bank account was added' : 'Your bank account was changed',
      paragraphs: [
        `Hello ${firstName},`,
        `Your ${currency} bank account ending ${ending} was ${isNew ? 'added to' : 'changed on'} your Florin account.`,
        'For your safety, withdrawals to it wait 24 hours and until it is verified.',
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  fiat_withdrawal_requested: entry<{ firstName: string; amount: string; receive: string; currency: string }>({
    render: ({ firstName, amount, receive, currency }) => ({
      subject: 'Your withdrawal request',
      paragraphs: [
        `Hello ${firstName},`,
        `We received your request to withdraw ${amount} ${currency}; ${receive} ${currency} will reach your bank account after the fee.`,
        'Fiat withdrawals take up to 3 business days. You can cancel it while it is pending.',
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  fiat_withdrawal_paid: entry<{ firstName: string; receive: string; currency: string; ending: string }>({
    render: ({ firstName, receive, currency, ending }) => ({
      subject: 'Your withdrawal was sent',
      paragraphs: [
        `Hello ${firstName},`,
        `We sent ${receive} ${currency} to your bank account ending ${ending}.`,
      ],
    }),
  }),
  fiat_withdrawal_rejected: entry<{ firstName: string; amount: string; currency: string; reason: string }>({
    render: ({ firstName, amount, currency, reason }) => ({
      subject: 'Your withdrawal was not made',
      paragraphs: [
        `Hello ${firstName},`,
        `Your withdrawal of ${amount} ${currency} was rejected: ${reason}`,
        'The money is back in your balance.',
      ],
    }),
  }),
  // ---- whitelisted withdrawal addresses (issue 8) ----
  wallet_whitelisted: entry<{
    firstName: string;
    coin: string;
    label: string;
    ending: string;
    usableFrom: string;
  }>({
    render: ({ firstName, coin, label, ending, usableFrom }) => ({
      subject: 'A withdrawal address was whitelisted',
      paragraphs: [
        `Hello ${firstName},`,
        `The ${coin} address ending ${ending} ("${label}") was added to the whitelist of your Florin account.`,
        `For your safety, withdrawals to it are possible from ${usableFrom}.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  wallet_removal_code: entry<{
    firstName: string;
    code: string;
    coin: string;
    ending: string;
    minutes: number;
  }>({
    render: ({ firstName, code, coin, ending, minutes }) => ({
      subject: 'Your code to remove a whitelisted address',
      paragraphs: [
        `Hello ${firstName},`,
        `Your code to remove the ${coin} address ending ${ending} from your whitelist is ${code}. It works once, for ${minutes} minutes.`,
        'If you did not ask for it, do not share it with anyone, change your password and contact support.',
      ],
    }),
  }),
  wallet_whitelist_removed: entry<{ firstName: string; coin: string; label: string; ending: string }>({
    render: ({ firstName, coin, label, ending }) => ({
      subject: 'A withdrawal address was removed from your whitelist',
      paragraphs: [
        `Hello ${firstName},`,
        `The ${coin} address ending ${ending} ("${label}") was removed from the whitelist of your Florin account.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  crypto_withdrawal_requested: entry<{
    firstName: string;
    amount: string;
    receive: string;
    asset: string;
    address: string;
  }>({
    render: ({ firstName, amount, receive, asset, address }) => ({
      subject: 'Your crypto withdrawal request',
      paragraphs: [
        `Hello ${firstName},`,
        `We received your request to withdraw ${amount} ${asset}; ${receive} ${asset} will be sent to ${address} after the network fee.`,
        'Our team checks every withdrawal before it is sent. You can cancel it while it is pending.',
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  crypto_withdrawal_sent: entry<{
    firstName: string;
    receive: string;
    asset: string;
    address: string;
    txid: string;
  }>({
    render: ({ firstName, receive, asset, address, txid }) => ({
      subject: 'Your crypto withdrawal was sent',
      paragraphs: [
        `Hello ${firstName},`,
        `We sent ${receive} ${asset} to ${address}.`,
        `Transaction id: ${txid}`,
      ],
    }),
  }),
  crypto_withdrawal_rejected: entry<{ firstName: string; amount: string; asset: string; reason: string }>({
    render: ({ firstName, amount, asset, reason }) => ({
      subject: 'Your crypto withdrawal was not made',
      paragraphs: [
        `Hello ${firstName},`,
        `Your withdrawal of ${amount} ${asset} was rejected: ${reason}`,
        'The coins are back in your balance.',
      ],
    }),
  }),
  // Referral earnings claims (issue 10): money leaving for the bank account, so always sent.
  affiliate_claim_requested: entry<{ firstName: string; amount: string; ending: string }>({
    render: ({ firstName, amount, ending }) => ({
      subject: 'Your referral earnings claim',
      paragraphs: [
        `Hello ${firstName},`,
        `We received your claim of £${amount} of referral earnings. We will pay it to your bank account ending ${ending}, usually within 3 business days.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  affiliate_claim_paid: entry<{ firstName: string; amount: string; ending: string }>({
    render: ({ firstName, amount, ending }) => ({
      subject: 'Your referral earnings were paid',
      paragraphs: [
        `Hello ${firstName},`,
        `We paid £${amount} of referral earnings to your bank account ending ${ending}.`,
      ],
    }),
  }),
  affiliate_claim_rejected: entry<{ firstName: string; amount: string; reason: string }>({
    render: ({ firstName, amount, reason }) => ({
      subject: 'Your referral earnings claim could not be paid',
      paragraphs: [
        `Hello ${firstName},`,
        `We could not pay your claim of £${amount}: ${reason}`,
        'The amount is back in your unpaid earnings; you can claim it again from the Referrals tab.',
      ],
    }),
  }),
} as const;
