import { SOURCE_OF_WEALTH_THRESHOLD_TEXT } from '@florin/contracts';
import { entry } from './shared.js';

/** The back office's decisions (compliance and support): documents, holds, closure, resets and changed details. */
export const BACK_OFFICE_NOTIFICATIONS = {
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
} as const;
