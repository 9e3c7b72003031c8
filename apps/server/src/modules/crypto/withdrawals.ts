import { createCryptoActivity } from './activity.js';
import { createAutoPayouts } from './withdrawal-auto-payouts.js';
import { createWithdrawalCancellation } from './withdrawal-cancellation.js';
import { createWithdrawalContext, type CryptoWithdrawalServiceDeps } from './withdrawal-context.js';
import { createWithdrawalDestinations } from './withdrawal-destinations.js';
import { createWithdrawalPayouts } from './withdrawal-payouts.js';
import { createWithdrawalRequests } from './withdrawal-requests.js';
import { createWithdrawalReview } from './withdrawal-review.js';
import { createWithdrawalSettings } from './withdrawal-settings.js';
import { createWithdrawalSubmission } from './withdrawal-submission.js';

export { cryptoWithdrawalDomainCheck } from './domain-checks.js';
export type {
  CryptoWithdrawalServiceDeps,
  SavedAddresses,
  WithdrawRequestBody,
} from './withdrawal-context.js';
export type { FlorinDestination } from './withdrawal-destinations.js';
export { CRYPTO_WITHDRAW_2FA_PURPOSE } from './withdrawal-submission.js';
export { PAID_AUTOMATICALLY, type PayoutSummary } from './withdrawal-auto-payouts.js';

export type CryptoWithdrawalService = ReturnType<typeof createCryptoWithdrawalService>;

/**
 * Crypto out. A request is checked, its amount held and a code mailed for
 * it alone; the code, then the customer's 2FA, put it in the staff queue;
 * staff approve it (twice beyond the coin's daily limit), send it (the hold
 * is posted) and mark it confirmed, or reject it (the hold is voided). A
 * request not confirmed within 30 minutes expires and its hold is released.
 * Customers are mailed and their screens told after each commit.
 */
export function createCryptoWithdrawalService(deps: CryptoWithdrawalServiceDeps) {
  const context = createWithdrawalContext(deps);
  const destinations = createWithdrawalDestinations(deps);
  const cancellation = createWithdrawalCancellation(deps);
  const requests = createWithdrawalRequests(deps, context, { destinations, cancellation });
  const submission = createWithdrawalSubmission(deps, context);
  const activity = createCryptoActivity(deps, cancellation);
  const review = createWithdrawalReview(deps, context);
  const payouts = createWithdrawalPayouts(deps, context);
  const settings = createWithdrawalSettings(deps);
  const autoPayouts = createAutoPayouts(deps, payouts);

  return {
    /** Run by the leading instance's watcher: unconfirmed requests past their 30 minutes give their coins back. */
    expireOverdue: cancellation.expireOverdue,
    /** Run by the leading instance: approved withdrawals within their coin's limits leave from the hot wallet. */
    payOutOnce: autoPayouts.payOutOnce,
    closeHotWallets: autoPayouts.closeHotWallets,

    /** The whitelist refuses what a withdrawal would. */
    florinDestinationOf: destinations.florinDestinationOf,

    // ---- customer ----

    withdrawInfo: requests.withdrawInfo,
    request: requests.request,
    resendCode: requests.resendCode,
    verify: requests.verify,
    submit: submission.submit,
    cancel: cancellation.cancel,
    listActivity: activity.listActivity,

    // ---- back office: the payout queue ----

    listQueue: review.listQueue,
    approve: review.approve,
    signingRequest: payouts.signingRequest,
    send: payouts.send,
    confirm: payouts.confirm,
    reject: review.reject,

    // ---- public ----

    listFeeRules: settings.listFeeRules,

    // ---- back office: settings ----

    listSettings: settings.listSettings,
    updateSettings: settings.updateSettings,
  };
}
