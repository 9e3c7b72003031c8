import { z } from 'zod';
import { CRYPTO_ENTRY_DECIMALS, MAX_ASSET_SCALE, decimalPlaces, trimZeros } from '@florin/domain';
import { CoinIdSchema, CryptoAssetSchema } from './crypto.js';
import { defineEndpoint } from './endpoint.js';
import { DecimalStringSchema, fitsColumn, TOO_LARGE_TEXTS } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * Crypto out (issue 8; spec 001 §2 "Crypto withdraw form", §4, §5, §7, §8):
 * the safer reading of the spec's flow. send-verify-withdraw checks the
 * request, holds the amount and mails a code bound to this withdrawal;
 * verify-withdraw takes the code; crypto/withdraw takes the 2FA code and
 * queues it for staff, who approve, send and mark it confirmed. Texts in
 * quotes in the spec are kept word for word.
 */

export const CRYPTO_WITHDRAW_TEXTS = {
  // spec 001 §5, §8
  accountNotLive: 'Your account is not live!',
  emptyAddress: 'Please provide a valid wallet to send your withdrawal.',
  balanceTooLow: 'The requested amount (fees applied) is greater than your current balance.',
  enterAmount: 'Please Enter Amount.',
  invalidAddressTitle: 'Invalid Address',
  codeExpired: 'Verification Code Expired',
  passcodeRequired: 'Please provide 2FA Code.',
  verificationTitle: 'Withdraw Verification',
  twoFactorTitle: 'Two Factor Authentication',
  // ours (docs/decisions/048-crypto-withdrawals-and-whitelists.md)
  importantNotice:
    'Important: only send to a wallet address you own and have checked. Crypto transfers cannot be reversed: coins sent to a wrong address are lost.',
  amountFormat: 'Enter an amount such as 0.5.',
  amountPositive: 'Enter an amount greater than zero.',
  amountDecimals: 'Enter at most 8 decimal places.',
  xrpWholeNumbers: 'XRP withdrawals are in whole XRP: no decimal point.',
  tagInvalid: 'The destination tag is a number of up to 10 digits.',
  noTagQuestion:
    'You have not entered an XRP destination tag. Exchanges usually need one to credit you, and XRP sent without it may be lost. Withdraw without a tag?',
  beneficiaryNameRequired: "Please give the full name of the wallet's owner.",
  businessNameRequired: 'Please give the name of the business that owns the wallet.',
  exchangeNameRequired: 'Please name the exchange.',
  codeSent: 'We have e-mailed you a 6-digit code. Enter it to confirm this withdrawal.',
  codeResent: 'We have e-mailed you a new code.',
  tooManyResends:
    'We have e-mailed you as many new codes for this withdrawal as we can. Please cancel it and start a new one.',
  codeWrong: 'This verification code is wrong. Please check the e-mail and try again.',
  codeUsedUp: 'This code no longer works. Please request a new one.',
  codeVerified: 'Code confirmed.',
  withdrawalRequested:
    'Your withdrawal request has been received. We send it once our team has checked it, and e-mail you when it is on its way.',
  wrongPasscode: 'Wrong Passcode.',
  withdrawDisabled: 'Withdrawals of this coin are paused at the moment. Please try again later.',
  securityWait:
    'For your security, crypto withdrawals pause for 24 hours after a password or two-factor change. You can withdraw again from',
  whitelistWait: 'This address was whitelisted less than 24 hours ago. You can withdraw to it from',
  savedAddressGone: 'This saved address is no longer on your whitelist.',
  savedAddressOtherTag:
    'A saved address is sent to with the destination tag it was saved with. To use another tag, whitelist the address with that tag.',
  notAwaitingCode: 'This withdrawal is not waiting for a verification code.',
  notVerified: 'Please confirm the e-mailed code first.',
  notCancellable: 'This withdrawal can no longer be cancelled.',
  cancelled: 'Withdrawal cancelled. The coins are back in your balance.',
  sendToOwnAddress: 'You cannot withdraw to your own Florin deposit address.',
  houseAddressWithoutTag:
    "This is Florin's shared XRP deposit address: a payment to it needs the destination tag of the account it is for.",
  // back office
  approved: 'Withdrawal approved. It can now be sent.',
  firstApproval:
    'First approval recorded. This withdrawal is over the daily limit: another staff member must approve it too.',
  alreadyApprovedByYou:
    'You have approved this withdrawal: another staff member must give the second approval.',
  sent: 'Withdrawal sent. The customer is e-mailed.',
  confirmed: 'Withdrawal marked confirmed.',
  rejected: 'Withdrawal rejected. The coins are back in the customer’s balance.',
  notPending: 'This withdrawal is not waiting for approval.',
  notApproved: 'This withdrawal is not approved for sending.',
  notSent: 'This withdrawal has not been sent.',
  notOpen: 'This withdrawal is no longer open.',
  customerOnHold: 'The customer’s account is on hold: this payout waits until compliance lifts the hold.',
  txidRequired:
    'This coin is sent from cold storage: sign the exported transaction and enter the transaction id the signer gives.',
  txidInvalid: 'Enter the transaction id: 16 to 100 letters and digits.',
  settingsSaved: 'Withdrawal settings saved.',
} as const;

/** The spec's minimum text (001 §5): 'Minimum {COIN} withdrawal amount is {amount_min}'. */
export function cryptoMinimumText(coin: string, minimum: string): string {
  return `Minimum ${coin.toUpperCase()} withdrawal amount is ${trimZeros(minimum)}`;
}

export const BENEFICIARY_TYPES = ['self', 'person', 'business'] as const;
export const BeneficiaryTypeSchema = z.enum(BENEFICIARY_TYPES, {
  error: 'Please tell us who owns this wallet.',
});
export const BENEFICIARY_TYPE_LABELS: Record<(typeof BENEFICIARY_TYPES)[number], string> = {
  self: 'Me: it is my own wallet',
  person: 'Another person',
  business: 'A business',
};
export const DESTINATION_TYPES = ['private_wallet', 'exchange'] as const;
export const DestinationTypeSchema = z.enum(DESTINATION_TYPES, {
  error: 'Please tell us where the wallet is held.',
});
export const DESTINATION_TYPE_LABELS: Record<(typeof DESTINATION_TYPES)[number], string> = {
  private_wallet: 'A private wallet',
  exchange: 'An account at an exchange',
};

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ok = z.object({ message: z.string() });
const codeSchema = z
  .string({ error: 'Enter the 6-digit code.' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code.');

/** At most 8 decimals (none for xrp): the spec's first reading (001 §5). */
export const CRYPTO_WITHDRAW_DECIMALS = CRYPTO_ENTRY_DECIMALS;

/**
 * The spec's payload (001 §3: coin, amount, wallet, xrp_tag, passcode, fee, amount_receive) with
 * the saved address chosen and the Travel Rule answers. The client's fee and amount_receive are
 * ignored: the server takes the coin's fee.
 */
export const CryptoWithdrawRequestSchema = z
  .strictObject({
    coin: CoinIdSchema,
    amount: z
      .string({ error: CRYPTO_WITHDRAW_TEXTS.enterAmount })
      .trim()
      .min(1, CRYPTO_WITHDRAW_TEXTS.enterAmount),
    /** The destination address typed; or leave empty and send whitelisted_wallet_id. */
    wallet: z.string().trim().max(150).nullish(),
    /** A saved (whitelisted) address of the customer's, chosen from the dropdown. */
    whitelisted_wallet_id: idParam.nullish(),
    xrp_tag: z
      .string()
      .trim()
      .max(10, CRYPTO_WITHDRAW_TEXTS.tagInvalid)
      .regex(/^\d*$/, CRYPTO_WITHDRAW_TEXTS.tagInvalid)
      .nullish(),
    passcode: z.string().trim().max(20).nullish(),
    fee: z.string().max(50).nullish(),
    amount_receive: z.string().max(50).nullish(),
    beneficiary_type: BeneficiaryTypeSchema,
    beneficiary_name: z.string().trim().max(140).nullish(),
    destination_type: DestinationTypeSchema,
    exchange_name: z.string().trim().max(100).nullish(),
  })
  .superRefine((body, ctx) => {
    const amount = body.amount;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (amount !== '') {
      if (/^-/.test(amount)) issue('amount', CRYPTO_WITHDRAW_TEXTS.amountPositive);
      else if (!/^\d+(\.\d+)?$/.test(amount)) issue('amount', CRYPTO_WITHDRAW_TEXTS.amountFormat);
      else if (body.coin === 'xrp' && amount.includes('.'))
        issue('amount', CRYPTO_WITHDRAW_TEXTS.xrpWholeNumbers);
      else if ((decimalPlaces(amount) ?? 0) > CRYPTO_WITHDRAW_DECIMALS)
        issue('amount', CRYPTO_WITHDRAW_TEXTS.amountDecimals);
      else if (!/[1-9]/.test(amount)) issue('amount', CRYPTO_WITHDRAW_TEXTS.amountPositive);
      else if (!fitsColumn(amount, MAX_ASSET_SCALE)) issue('amount', TOO_LARGE_TEXTS.amount);
    }
    if (!body.wallet && !body.whitelisted_wallet_id) issue('wallet', CRYPTO_WITHDRAW_TEXTS.emptyAddress);
    if (body.beneficiary_type === 'person' && !body.beneficiary_name)
      issue('beneficiary_name', CRYPTO_WITHDRAW_TEXTS.beneficiaryNameRequired);
    if (body.beneficiary_type === 'business' && !body.beneficiary_name)
      issue('beneficiary_name', CRYPTO_WITHDRAW_TEXTS.businessNameRequired);
    if (body.destination_type === 'exchange' && !body.exchange_name)
      issue('exchange_name', CRYPTO_WITHDRAW_TEXTS.exchangeNameRequired);
  });
export type CryptoWithdrawRequest = z.input<typeof CryptoWithdrawRequestSchema>;

export const CRYPTO_WITHDRAWAL_STATUSES = [
  'awaiting_code',
  'verified',
  'pending',
  'approved',
  'sent',
  'confirmed',
  'rejected',
  'cancelled',
  'expired',
] as const;
export const CryptoWithdrawalStatusSchema = z.enum(CRYPTO_WITHDRAWAL_STATUSES);
export type CryptoWithdrawalStatus = z.infer<typeof CryptoWithdrawalStatusSchema>;

/**
 * Lifecycle (CONVENTIONS 7). awaiting_code and verified hold the coins while the customer
 * confirms; not confirmed within 30 minutes they expire. sent posts the hold.
 */
export const CRYPTO_WITHDRAWAL_TRANSITIONS: Record<
  CryptoWithdrawalStatus,
  readonly CryptoWithdrawalStatus[]
> = {
  awaiting_code: ['verified', 'cancelled', 'expired'],
  verified: ['pending', 'approved', 'cancelled', 'expired'],
  pending: ['approved', 'rejected', 'cancelled'],
  approved: ['sent', 'rejected'],
  sent: ['confirmed'],
  confirmed: [],
  rejected: [],
  cancelled: [],
  expired: [],
};

export const CRYPTO_WITHDRAWAL_STATUS_LABELS: Record<CryptoWithdrawalStatus, string> = {
  awaiting_code: 'Awaiting code',
  verified: 'Awaiting 2FA',
  pending: 'Pending',
  approved: 'Approved',
  sent: 'Sent',
  confirmed: 'Completed',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** An unconfirmed withdrawal (code or 2FA not given) holds the coins this long, then expires. */
export const CRYPTO_WITHDRAWAL_CONFIRM_MINUTES = 30;

export const CryptoWithdrawalSchema = z.object({
  id: z.string(),
  coin_id: CoinIdSchema,
  /** Leaves the balance (fee included). */
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** "You Will Get": amount − fee, what reaches the address. */
  amount_receive: DecimalStringSchema,
  address: z.string(),
  tag: z.string().nullable(),
  beneficiary_type: BeneficiaryTypeSchema,
  beneficiary_name: z.string().nullable(),
  destination_type: DestinationTypeSchema,
  exchange_name: z.string().nullable(),
  status: CryptoWithdrawalStatusSchema,
  status_label: z.string(),
  txid: z.string().nullable(),
  /** Until when the e-mailed code and 2FA may be given. */
  verify_by: isoDateTime,
  can_cancel: z.boolean(),
  reject_reason: z.string().nullable(),
  created_at: isoDateTime,
  sent_at: isoDateTime.nullable(),
});
export type CryptoWithdrawal = z.infer<typeof CryptoWithdrawalSchema>;

const withdrawalAnswer = z.object({ data: CryptoWithdrawalSchema, message: z.string() });

/** What the withdraw form needs to draw itself for a coin. */
export const CryptoWithdrawInfoSchema = z.object({
  coin_id: CoinIdSchema,
  available: DecimalStringSchema,
  /** The spec's amount_min and withdraw_fee. */
  minimum: DecimalStringSchema,
  fee: DecimalStringSchema,
  /** 8, or 0 for xrp. */
  decimals: z.number().int(),
  /** The 2FA modal follows the e-mailed code (the customer has an authenticator or e-mailed codes). */
  passcode_required: z.boolean(),
  /** The Send 2FA button (platform_2fa_mobile). */
  email_codes: z.boolean(),
  withdraw_disabled: z.boolean(),
  /** A password or 2FA change less than 24 hours ago: withdrawals are possible from this moment. */
  blocked_until: isoDateTime.nullable(),
});
export type CryptoWithdrawInfo = z.infer<typeof CryptoWithdrawInfoSchema>;

export const getCryptoWithdrawInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v1/crypto/withdraw-info',
  summary: 'Balance, minimum, fee, decimals, 2FA needs and any 24-hour pause for a crypto withdrawal',
  query: z.strictObject({ coin: CoinIdSchema }),
  responses: { 200: z.object({ data: CryptoWithdrawInfoSchema }) },
});

export const sendVerifyWithdraw = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/send-verify-withdraw',
  summary:
    'Check a crypto withdrawal, hold the amount and e-mail a code bound to it. Needs the Idempotency-Key header.',
  body: CryptoWithdrawRequestSchema,
  responses: { 200: withdrawalAnswer },
});

export const resendWithdrawCode = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/withdrawals/{id}/resend-code',
  summary: 'E-mail a new code for a withdrawal waiting for one (the old code stops working)',
  params: z.strictObject({ id: idParam }),
  responses: { 200: ok },
});

export const verifyWithdraw = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/verify-withdraw',
  summary: 'Confirm a withdrawal with the code e-mailed for it (single use, 10 minutes, 5 tries)',
  body: z.strictObject({ withdrawal_id: idParam, verify_code: codeSchema }),
  responses: { 200: withdrawalAnswer },
});

export const cryptoWithdraw = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/withdraw',
  summary:
    'Queue a confirmed withdrawal for staff with the 2FA code (when the customer has 2FA); the same answer when repeated',
  body: z.strictObject({ withdrawal_id: idParam, passcode: z.string().trim().max(20).nullish() }),
  responses: { 200: withdrawalAnswer },
});

export const cancelCryptoWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/v1/crypto/withdrawals/{id}/cancel',
  summary: 'Cancel one of the customer’s withdrawals before staff approve it (the hold is voided)',
  params: z.strictObject({ id: idParam }),
  responses: { 200: withdrawalAnswer },
});

// ---- customer: the activity list of a coin (deposits and withdrawals) ----

export const CryptoActivitySchema = z.object({
  /** "deposit:12" or "withdrawal:34". */
  id: z.string(),
  type: z.enum(['deposit', 'withdrawal']),
  coin_id: CoinIdSchema,
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  status: z.string(),
  status_label: z.string(),
  address: z.string(),
  txid: z.string().nullable(),
  /** Deposits: confirmations seen and needed; null for withdrawals. */
  confirmations: z.number().int().nullable(),
  required_confirmations: z.number().int().nullable(),
  withdrawal: CryptoWithdrawalSchema.nullable(),
  created_at: isoDateTime,
});
export type CryptoActivity = z.infer<typeof CryptoActivitySchema>;

export const CRYPTO_ACTIVITY_PAGE_SIZE = 20;

export const listCryptoActivity = defineEndpoint({
  method: 'GET',
  path: '/api/v1/crypto/transactions',
  summary:
    "The customer's crypto deposits (pending ones with their confirmations) and withdrawals, newest first",
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    coin: CoinIdSchema.optional(),
  }),
  responses: { 200: pageSchema(CryptoActivitySchema) },
});

// ---- back office: the crypto payout queue (finance) ----

export const AdminCryptoWithdrawalSchema = CryptoWithdrawalSchema.extend({
  asset: CryptoAssetSchema,
  user_id: z.number().int(),
  user_identification: z.string(),
  customer_name: z.string(),
  email: z.string(),
  whitelisted: z.boolean(),
  needs_second_approval: z.boolean(),
  auto_approved: z.boolean(),
  approved_by: z.string().nullable(),
  second_approved_by: z.string().nullable(),
  sent_by: z.string().nullable(),
  /** How this coin is sent: by the simulated chain's hot wallet, or signed in cold storage. */
  wallet: z.enum(['simulated', 'cold_storage']),
  /** Compliance put the account on hold: the withdrawal is neither approved nor sent until lifted. */
  customer_on_hold: z.boolean(),
});
export type AdminCryptoWithdrawal = z.infer<typeof AdminCryptoWithdrawalSchema>;

export const listCryptoPayoutQueue = defineEndpoint({
  method: 'GET',
  path: '/api/admin/crypto/withdrawals',
  summary: 'Crypto withdrawals: open ones (pending, approved, sent) oldest first, or by status newest first',
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    status: z.enum(['open', ...CRYPTO_WITHDRAWAL_STATUSES]).default('open'),
  }),
  responses: { 200: pageSchema(AdminCryptoWithdrawalSchema) },
});

const WithdrawalParams = z.strictObject({ id: idParam });
const adminAnswer = z.object({ data: AdminCryptoWithdrawalSchema, message: z.string() });

export const approveCryptoWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/withdrawals/{id}/approve',
  summary: 'Approve a pending withdrawal; over the daily limit a second staff member approves too',
  params: WithdrawalParams,
  body: z.strictObject({}),
  responses: { 200: adminAnswer },
});

/** What the cold-storage signer needs to build and sign the transaction. */
export const SigningRequestSchema = z.object({
  withdrawal_id: z.string(),
  asset: CryptoAssetSchema,
  address: z.string(),
  tag: z.string().nullable(),
  /** The amount to send (amount − fee), in the coin and in its smallest unit. */
  amount: DecimalStringSchema,
  amount_units: z.string(),
  created_at: isoDateTime,
});

export const exportSigningRequest = defineEndpoint({
  method: 'GET',
  path: '/api/admin/crypto/withdrawals/{id}/signing-request',
  summary: 'The unsigned transaction of an approved withdrawal, for the cold-storage signer',
  params: WithdrawalParams,
  responses: { 200: z.object({ data: SigningRequestSchema }) },
});

export const sendCryptoWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/withdrawals/{id}/send',
  summary:
    'Send an approved withdrawal (posts its hold): the hot wallet broadcasts it, or give the txid the cold-storage signer returned',
  params: WithdrawalParams,
  body: z.strictObject({
    txid: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z]{16,100}$/, CRYPTO_WITHDRAW_TEXTS.txidInvalid)
      .nullish(),
  }),
  responses: { 200: adminAnswer },
});

export const confirmCryptoWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/withdrawals/{id}/confirm',
  summary: 'Mark a sent withdrawal confirmed on the chain',
  params: WithdrawalParams,
  body: z.strictObject({}),
  responses: { 200: adminAnswer },
});

export const rejectCryptoWithdrawal = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/withdrawals/{id}/reject',
  summary: 'Reject a pending or approved withdrawal with a reason the customer reads (voids its hold)',
  params: WithdrawalParams,
  body: z.strictObject({
    reason: z
      .string({ error: 'Please give the reason.' })
      .trim()
      .min(1, 'Please give the reason.')
      .max(500, 'The reason may be at most 500 characters.'),
  }),
  responses: { 200: adminAnswer },
});
