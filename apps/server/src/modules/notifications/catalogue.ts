import { SOURCE_OF_WEALTH_THRESHOLD_TEXT } from '@florin/contracts';

/**
 * Every e-mail Florin sends a customer, in one place. Features emit events;
 * this decides the words. `optional` ones obey the customer's Alerts switches
 * (DECISIONS.md: login, logout, marketing, daily summary); the rest always go.
 */
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

type Entry<D> = {
  optional?:
    'login_notifications' | 'loginout_notifications' | 'marketing_notifications' | 'trade_notifications';
  render: (data: D) => Rendered;
};

const entry = <D>(value: Entry<D>) => value;

const NEWSLETTER_FOOTER =
  'Florin Ltd · You receive this email because this address was entered in the Florin newsletter sign-up.';

export const NOTIFICATIONS = {
  email_verification: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Verify your email address',
      paragraphs: [
        `Hello ${firstName},`,
        'Please confirm your email address to finish creating your Florin account. The link works for 24 hours.',
      ],
      action: { label: 'Verify email address', url },
    }),
  }),
  already_registered: entry<{ firstName: string; loginUrl: string; resetUrl: string }>({
    render: ({ firstName, loginUrl, resetUrl }) => ({
      subject: 'You already have a Florin account',
      paragraphs: [
        `Hello ${firstName},`,
        'Someone, probably you, tried to create a Florin account with this email address. You already have one, so nothing was changed.',
        `Sign in at ${loginUrl}, or if you have forgotten your password, reset it at ${resetUrl}.`,
        'If this was not you, you can ignore this email.',
      ],
    }),
  }),
  password_reset: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Reset your Florin password',
      paragraphs: [
        `Hello ${firstName},`,
        'We received a request to reset your password. The link works for one hour and only once.',
        'If you did not ask for this, ignore this email: your password stays as it is.',
      ],
      action: { label: 'Reset password', url },
    }),
  }),
  email_change_confirm: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Confirm your new email address',
      paragraphs: [
        `Hello ${firstName},`,
        'Please confirm that this is the new email address for your Florin account. The link works for 24 hours.',
      ],
      action: { label: 'Confirm new email address', url },
    }),
  }),
  email_change_requested: entry<{ firstName: string; newEmail: string }>({
    render: ({ firstName, newEmail }) => ({
      subject: 'A change of your email address was requested',
      paragraphs: [
        `Hello ${firstName},`,
        `Someone signed in to your Florin account asked to change its email address to ${newEmail}. It changes only when the new address confirms it.`,
        'If this was not you, change your password now and contact support.',
      ],
    }),
  }),
  email_changed: entry<{ firstName: string; newEmail: string }>({
    render: ({ firstName, newEmail }) => ({
      subject: 'Your email address was changed',
      paragraphs: [
        `Hello ${firstName},`,
        `The email address of your Florin account is now ${newEmail}.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  password_changed: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Your password was changed',
      paragraphs: [
        `Hello ${firstName},`,
        'The password of your Florin account was changed: your other sessions were signed out and your API keys were deleted (create new ones in Settings if you use them).',
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  two_factor_enabled: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Two-factor authentication is on',
      paragraphs: [
        `Hello ${firstName},`,
        'Two-factor authentication is now on for your Florin account. Keep your recovery codes somewhere safe.',
      ],
    }),
  }),
  two_factor_disabled: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Two-factor authentication was turned off',
      paragraphs: [
        `Hello ${firstName},`,
        'Two-factor authentication was turned off for your Florin account.',
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  recovery_code_used: entry<{ firstName: string; left: number }>({
    render: ({ firstName, left }) => ({
      subject: 'A recovery code was used to sign in',
      paragraphs: [
        `Hello ${firstName},`,
        `A recovery code was used to sign in to your Florin account. You have ${left} left.`,
        'If this was not you, reset your password now and contact support.',
      ],
    }),
  }),
  login: entry<{ firstName: string; ip: string; at: string }>({
    optional: 'login_notifications',
    render: ({ firstName, ip, at }) => ({
      subject: 'New sign-in to your Florin account',
      paragraphs: [
        `Hello ${firstName},`,
        `Your account was signed in to on ${at} from ${ip}.`,
        'If this was not you, reset your password now.',
      ],
    }),
  }),
  logout: entry<{ firstName: string; at: string }>({
    optional: 'loginout_notifications',
    render: ({ firstName, at }) => ({
      subject: 'You signed out of Florin',
      paragraphs: [`Hello ${firstName},`, `Your account was signed out on ${at}.`],
    }),
  }),
  // ---- the back office's decisions (compliance and support) ----
  kyc_document_approved: entry<{ firstName: string; document: string }>({
    render: ({ firstName, document }) => ({
      subject: 'Your document was approved',
      paragraphs: [
        `Hello ${firstName},`,
        `Our compliance team has approved your ${document}.`,
        'We will tell you as soon as your account is live.',
      ],
    }),
  }),
  kyc_document_declined: entry<{ firstName: string; document: string; note: string; url: string }>({
    render: ({ firstName, document, note, url }) => ({
      subject: 'Please upload your document again',
      paragraphs: [
        `Hello ${firstName},`,
        `Our compliance team could not accept your ${document}.`,
        `Cause of rejection: ${note}`,
        'Please sign in and upload it again.',
      ],
      action: { label: 'Upload again', url },
    }),
  }),
  account_live: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Your Florin account is live',
      paragraphs: [
        `Hello ${firstName},`,
        'Your identity is verified and your account is live: you can now deposit, trade and withdraw.',
      ],
      action: { label: 'Go to Florin', url },
    }),
  }),
  account_on_hold: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Your Florin account is on hold',
      paragraphs: [
        `Hello ${firstName},`,
        'Our compliance team has put your account on hold. While it is on hold you cannot trade, deposit or withdraw.',
        'Please contact support to resolve it.',
      ],
    }),
  }),
  account_hold_lifted: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'The hold on your Florin account is lifted',
      paragraphs: [`Hello ${firstName},`, 'Our compliance team has lifted the hold on your account.'],
    }),
  }),
  account_termination_notice: entry<{ firstName: string; terminatesOn: string; accessEndsOn: string }>({
    render: ({ firstName, terminatesOn, accessEndsOn }) => ({
      subject: 'Notice that your Florin account will end',
      paragraphs: [
        `Hello ${firstName},`,
        `We are giving you one month's notice that we will end your account on ${terminatesOn}, as our terms allow.`,
        `Until then you can use your account as normal. From ${terminatesOn} you can only withdraw your money and coins, until ${accessEndsOn}; after that you will not be able to sign in.`,
        'Please withdraw your money and coins in good time. If you have questions, contact support.',
      ],
    }),
  }),
  account_closed: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Your Florin account is closed',
      paragraphs: [
        `Hello ${firstName},`,
        'You closed your Florin account. You can no longer sign in.',
        'We keep the records the law requires for five years, then erase your personal data. If you did not close your account, contact support at once.',
      ],
    }),
  }),
  source_of_wealth_reset: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Please tell us about your source of wealth again',
      paragraphs: [
        `Hello ${firstName},`,
        'As part of our regular checks, our compliance team asks you to answer the source-of-wealth questions again.',
        'Until you do, buying and withdrawing wait.',
      ],
      action: { label: 'Answer now', url },
    }),
  }),
  source_of_wealth_threshold: entry<{ firstName: string; url: string }>({
    render: ({ firstName, url }) => ({
      subject: 'Please tell us about your source of wealth',
      paragraphs: [
        `Hello ${firstName},`,
        `This year you have traded more than ${SOURCE_OF_WEALTH_THRESHOLD_TEXT} with Florin. When you opened your account you told us you did not expect to, so the law asks us to learn where your money comes from.`,
        'Please answer the source-of-wealth questions when you next sign in. Until you do, buying and withdrawing wait.',
      ],
      action: { label: 'Answer now', url },
    }),
  }),
  two_factor_reset_by_staff: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'Your two-factor authentication was reset',
      paragraphs: [
        `Hello ${firstName},`,
        'At your request, our support team removed two-factor authentication from your Florin account and signed out every session.',
        'For your safety, withdrawals are paused for 24 hours. Please set up two-factor authentication again in Settings.',
        'If you did not ask for this, contact support at once.',
      ],
    }),
  }),
  email_codes_switched: entry<{ firstName: string; enabled: boolean }>({
    render: ({ firstName, enabled }) => ({
      subject: enabled ? 'Sign-in codes will come by email' : 'Sign-in codes by email are off',
      paragraphs: [
        `Hello ${firstName},`,
        enabled
          ? 'At your request, our support team switched on sign-in codes sent to this email address. Withdrawals to a new address now wait for our approval.'
          : 'Our support team switched off sign-in codes sent by email for your Florin account.',
        'If you did not ask for this, contact support at once.',
      ],
    }),
  }),
  identity_details_changed: entry<{ firstName: string; changes: string }>({
    render: ({ firstName, changes }) => ({
      subject: 'Your personal details were changed',
      paragraphs: [
        `Hello ${firstName},`,
        `At your request, our support team changed your ${changes}.`,
        'If you did not ask for this, contact support at once.',
      ],
    }),
  }),
  signed_out_by_staff: entry<{ firstName: string }>({
    render: ({ firstName }) => ({
      subject: 'You were signed out of Florin',
      paragraphs: [
        `Hello ${firstName},`,
        'Our support team signed your Florin account out on every device. Sign in again to continue.',
        'If you did not ask for this, change your password and contact support.',
      ],
    }),
  }),
  sign_in_code: entry<{ firstName: string; code: string; minutes: number; ip: string }>({
    render: ({ firstName, code, minutes, ip }) => ({
      subject: 'Your sign-in code',
      paragraphs: [
        `Hello ${firstName},`,
        `Your code to finish signing in to Florin is ${code}. It works once, for ${minutes} minutes.`,
        `Someone signed in with your password from the IP address ${ip}. If this was not you, do not share the code with anyone, change your password and contact support.`,
      ],
    }),
  }),
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
  // ---- whitelists and sign-in security (issue 8) ----
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
  ip_whitelisted: entry<{ firstName: string; ip: string }>({
    render: ({ firstName, ip }) => ({
      subject: 'An IP address was whitelisted',
      paragraphs: [
        `Hello ${firstName},`,
        `The IP address ${ip} was added to the sign-in whitelist of your Florin account. You can now sign in only from the addresses on that list.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  ip_whitelist_removed: entry<{ firstName: string; ip: string }>({
    render: ({ firstName, ip }) => ({
      subject: 'An IP address was removed from your whitelist',
      paragraphs: [
        `Hello ${firstName},`,
        `The IP address ${ip} was removed from the sign-in whitelist of your Florin account.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
  login_blocked_ip: entry<{ firstName: string; ip: string; at: string }>({
    render: ({ firstName, ip, at }) => ({
      subject: 'A sign-in from an unknown IP address was refused',
      paragraphs: [
        `Hello ${firstName},`,
        `On ${at} someone signed in to your Florin account with the right password from ${ip}, which is not on your IP whitelist, so we refused it.`,
        'If this was you, sign in from a whitelisted address and add this one in Settings. If it was not, change your password now.',
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
  trade_executed: entry<{
    firstName: string;
    side: 'buy' | 'sell';
    quantity: string;
    asset: string;
    price: string;
    fiat: string;
    total: string;
  }>({
    render: ({ firstName, side, quantity, asset, price, fiat, total }) => ({
      subject: side === 'buy' ? `You bought ${asset}` : `You sold ${asset}`,
      paragraphs: [
        `Hello ${firstName},`,
        side === 'buy'
          ? `You bought ${quantity} ${asset} at ${price} ${fiat} each and paid ${total} ${fiat}, fee included.`
          : `You sold ${quantity} ${asset} at ${price} ${fiat} each and received ${total} ${fiat} after the fee.`,
        'If this was not you, contact support at once.',
      ],
    }),
  }),
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
  /** The day's trades in one mail; each trade's own confirmation (trade_executed) always goes. */
  trading_daily_summary: entry<{
    firstName: string;
    day: string;
    trades: number;
    lines: string[];
    url: string;
  }>({
    optional: 'trade_notifications',
    render: ({ firstName, day, trades, lines, url }) => ({
      subject: `Your trading summary for ${day}`,
      paragraphs: [
        `Hello ${firstName},`,
        `On ${day} you made ${trades} ${trades === 1 ? 'trade' : 'trades'}:`,
        ...lines,
        'You receive this because trading notifications are on. Switch them off under Account, Alerts.',
      ],
      action: { label: 'See your history', url },
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

export type NotificationEvent = keyof typeof NOTIFICATIONS;
export type NotificationData<E extends NotificationEvent> = Parameters<
  (typeof NOTIFICATIONS)[E]['render']
>[0];
