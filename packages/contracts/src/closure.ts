import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * The end of an account (issue 13; spec 002 §1 and §9: one month's notice,
 * 60 days to move assets after termination, records kept five years). The
 * firm terminates with notice; a customer closes their own account once it
 * holds nothing. A terminated account may only read and withdraw; once its
 * access ends nobody can sign in to it. Personal data is erased five years
 * later, unless staff hold it for a legal reason.
 */
export const CLOSURE_TEXTS = {
  closeHeading: 'Close your account',
  closeIntro:
    'Closing your account is final: you will not be able to sign in again. Withdraw all your money and coins first. We keep the records the law requires for five years after closing, then erase your personal data.',
  closeNotEmpty:
    'Your account still holds money or coins (or some are reserved for an order, a withdrawal or a term deposit). Withdraw everything first, then close the account.',
  closeConfirm: 'Close my account',
  closed: 'Your account is closed. Thank you for using Florin.',
  noticeBanner:
    'We have given notice to end your account on {terminatesAt}. After that date you can only withdraw your money and coins, until {accessEndsAt}.',
  terminatedBanner:
    'Your account has been terminated. You can only withdraw your money and coins, until {accessEndsAt}. After that you will not be able to sign in.',
  terminateHeading: 'Terminate the account',
  terminateIntro:
    'The customer is e-mailed one month’s notice. From then on they may only withdraw, for 60 days, after which they can no longer sign in.',
  terminated: 'Notice of termination sent.',
  alreadyTerminated: 'This account is already terminated or closed.',
  legalHoldSet: 'Legal hold placed: this customer’s personal data will not be erased.',
  legalHoldLifted: 'Legal hold lifted.',
} as const;

/** The firm's notice period and the time left to withdraw after it (spec 002 §9). */
export const TERMINATION_NOTICE_MONTHS = 1;
export const WITHDRAW_DAYS_AFTER_TERMINATION = 60;
/** How long personal data is kept after the account's access ends (spec 002 §9: 5 years). */
export const RETENTION_YEARS = 5;

export const closeAccount = defineEndpoint({
  method: 'POST',
  path: '/api/v1/account/close',
  summary: 'Closes the signed-in account once it holds nothing; the password confirms it is the owner',
  body: z.strictObject({ password: z.string().min(1, 'Enter your password.').max(200) }),
  responses: { 200: z.object({ message: z.string() }) },
});

const userId = z.coerce.number().int().positive().max(2_147_483_647);
const reason = z.string().trim().min(3, 'Give a reason of at least 3 characters.').max(500);

export const terminateAccount = defineEndpoint({
  method: 'POST',
  path: '/api/admin/customers/{userId}/terminate',
  summary: "Gives the customer one month's notice of termination, by e-mail (compliance; audited)",
  params: z.strictObject({ userId }),
  body: z.strictObject({ reason }),
  responses: {
    200: z.object({
      data: z.object({ terminated_at: z.string(), access_ends_at: z.string() }),
      message: z.string(),
    }),
  },
});

export const setLegalHold = defineEndpoint({
  method: 'POST',
  path: '/api/admin/customers/{userId}/legal-hold',
  summary:
    "Places (a reason) or lifts (null) a legal hold on the customer's personal data (compliance; audited)",
  params: z.strictObject({ userId }),
  body: z.strictObject({ reason: reason.nullable() }),
  responses: {
    200: z.object({ data: z.object({ legal_hold_reason: z.string().nullable() }), message: z.string() }),
  },
});
