import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * The newsletter (issue 12): the landing page's sign-up, kept in our own
 * database with double opt-in (the spec's form posted to an external mailing
 * service, 002 §2.7). A visitor gives an address; it is mailed a single-use
 * confirmation link that works for 7 days; only confirmed addresses are ever
 * sent news. Every mail to a subscriber carries an unsubscribe link. Staff
 * (support) see the counts and export the confirmed addresses as CSV.
 */

export const NEWSLETTER_TEXTS = {
  /** The sign-up form's accessible name; the landing page gives the section its heading. */
  formLabel: 'Newsletter sign-up',
  emailLabel: 'Email address',
  subscribe: 'Subscribe',
  /**
   * What the visitor agrees to, shown beside the form and stored with each sign-up as the consent
   * given. The web app turns "Privacy Policy" into a link to /privacy.
   */
  consent:
    'By subscribing you agree to receive the Florin newsletter by email. You can unsubscribe at any time with the link in every email. We use your address only for the newsletter, as our Privacy Policy explains.',
  privacyPolicy: 'Privacy Policy',
  /** The same answer whether or not the address is already on the list, so the form cannot tell who is. */
  signedUp:
    'Almost done: please check your inbox and confirm your subscription with the link we have emailed you. The link works for 7 days.',
  emailInvalid: 'Please enter a valid email address.',
  confirming: 'Confirming your subscription…',
  confirmedTitle: 'You are subscribed',
  confirmed: 'Thank you: your subscription to the Florin newsletter is confirmed.',
  confirmFailedTitle: 'We could not confirm your subscription',
  /** Unknown, already used, or replaced by a newer link. */
  confirmLinkInvalid:
    'This confirmation link is not valid or has already been used. If you have not confirmed yet, please subscribe again on our home page.',
  confirmLinkExpired:
    'This confirmation link has expired. Please subscribe again on our home page to get a new one.',
  unsubscribeTitle: 'Unsubscribe from the Florin newsletter',
  unsubscribeIntro: 'We will stop sending the newsletter to your address.',
  unsubscribe: 'Unsubscribe',
  unsubscribedTitle: 'You are unsubscribed',
  unsubscribed: 'You will not receive the Florin newsletter any more. You can subscribe again at any time.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid. Please use the link in our latest email.',
  backHome: 'Go to the home page',
} as const;

/** A confirmation link works this long; a new sign-up with the same address replaces it. */
export const NEWSLETTER_CONFIRM_DAYS = 7;

export const NEWSLETTER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export const NewsletterStatusSchema = z.enum(NEWSLETTER_STATUSES);
export type NewsletterStatus = z.infer<typeof NewsletterStatusSchema>;

/**
 * Lifecycle (CONVENTIONS 7). A sign-up makes a pending subscriber; its mailed
 * link confirms it; an unsubscribe link ends either. Signing up again makes an
 * unsubscribed address pending once more (a new confirmation is needed); a
 * confirmed address stays confirmed.
 */
export const NEWSLETTER_TRANSITIONS: Record<NewsletterStatus, readonly NewsletterStatus[]> = {
  pending: ['confirmed', 'unsubscribed'],
  confirmed: ['unsubscribed'],
  unsubscribed: ['pending'],
};

export const NEWSLETTER_STATUS_LABELS: Record<NewsletterStatus, string> = {
  pending: 'Awaiting confirmation',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

const email = z.string().trim().toLowerCase().max(254).email(NEWSLETTER_TEXTS.emailInvalid);
/** The random token of a mailed link (32 bytes, base64url); anything else cannot be one. */
const linkToken = (invalid: string) => z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, invalid);
const message = z.object({ message: z.string() });

// ---- visitors ----

export const NewsletterSignUpBodySchema = z.strictObject({ email });
export type NewsletterSignUpBody = z.infer<typeof NewsletterSignUpBodySchema>;

export const subscribeNewsletter = defineEndpoint({
  method: 'POST',
  path: '/api/v1/newsletter',
  summary:
    'Sign up to the newsletter: mails a confirmation link (the answer never says whether the address was on the list)',
  body: NewsletterSignUpBodySchema,
  responses: { 200: message },
});

export const confirmNewsletter = defineEndpoint({
  method: 'POST',
  path: '/api/v1/newsletter/confirm/{token}',
  summary: 'Confirm a subscription with the mailed link (single use, 7 days)',
  params: z.strictObject({ token: linkToken(NEWSLETTER_TEXTS.confirmLinkInvalid) }),
  responses: { 200: message },
});

export const unsubscribeNewsletter = defineEndpoint({
  method: 'POST',
  path: '/api/v1/newsletter/unsubscribe/{token}',
  summary: 'Unsubscribe with the link every newsletter mail carries (may be used again)',
  params: z.strictObject({ token: linkToken(NEWSLETTER_TEXTS.unsubscribeLinkInvalid) }),
  responses: { 200: message },
});

// ---- back office (support) ----

export const NEWSLETTER_PAGE_SIZE = 25;

export const NewsletterSubscriberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  status: NewsletterStatusSchema,
  /** When the consent was given (the latest sign-up). */
  consent_at: z.string(),
  confirmed_at: z.string().nullable(),
  unsubscribed_at: z.string().nullable(),
});
export type NewsletterSubscriber = z.infer<typeof NewsletterSubscriberSchema>;

export const NewsletterCountsSchema = z.object({
  pending: z.number().int(),
  confirmed: z.number().int(),
  unsubscribed: z.number().int(),
});
export type NewsletterCounts = z.infer<typeof NewsletterCountsSchema>;

export const NewsletterSubscribersQuerySchema = z.strictObject({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(NEWSLETTER_PAGE_SIZE),
  /** Part of an address, to find one subscriber (case-insensitive). */
  q: z.string().trim().max(254).optional(),
});

export const listNewsletterSubscribers = defineEndpoint({
  method: 'GET',
  path: '/api/admin/newsletter/subscribers',
  summary: 'Newsletter counts by status and the subscribers, newest first (support)',
  query: NewsletterSubscribersQuerySchema,
  responses: {
    200: z.object({
      counts: NewsletterCountsSchema,
      data: z.array(NewsletterSubscriberSchema),
      total: z.number().int(),
      skip: z.number().int(),
      take: z.number().int(),
    }),
  },
});

/** The export's columns, in order: what a mailing tool needs and the consent each address gave. */
export const NEWSLETTER_CSV_COLUMNS = ['email', 'confirmed_at', 'consent', 'consent_at'] as const;

export const exportNewsletterSubscribers = defineEndpoint({
  method: 'GET',
  path: '/api/admin/newsletter/subscribers.csv',
  summary: 'The confirmed subscribers as CSV: email, confirmed_at, consent, consent_at (support; audited)',
  responses: { 200: z.string() },
});
