import { z } from 'zod';
import { CoinIdSchema } from './crypto.js';
import { defineEndpoint } from './endpoint.js';

/**
 * The Settings tabs Wallet Whitelisting and IP Whitelisting (issue 8; spec
 * 001 §2, §3, §4, §5, §7, §8). Both need 2FA turned on and a code to add.
 * A whitelisted address can receive withdrawals 24 hours after it was added
 * and feeds the withdraw form's saved addresses; removing one takes a code
 * e-mailed for that address. Once a customer whitelists IPs, sign-in from any
 * other address is refused and they are e-mailed.
 */

export const WHITELIST_TEXTS = {
  // spec 001 §2, §4, §5, §8
  walletAdded: 'Successfully Whitelisted Wallet Address.',
  ipAdded: 'Successfully Whitelisted IP Address.',
  addressRequired: 'Please add a valid wallet address.',
  removalFailed: 'Something went wrong. Please contact the admin.',
  codeExpired: 'Verification Code Expired',
  // ours (docs/decisions/048-crypto-withdrawals-and-whitelists.md)
  twoFactorRequired: 'Turn on two-factor authentication first: whitelisting needs it.',
  passcodeRequired: 'Please provide 2FA Code.',
  wrongPasscode: 'Wrong passcode.',
  labelRequired: 'Please give the address a label.',
  labelTooLong: 'The label may be at most 50 characters.',
  walletExists: 'This address is already on your whitelist.',
  ownDepositAddress: 'This is your own Florin deposit address: you cannot withdraw to it.',
  houseAddressWithoutTag:
    "This is Florin's shared XRP deposit address: save it with the destination tag of the account it is for.",
  usableAfter:
    'For your security, a newly whitelisted address can receive withdrawals 24 hours after it is added.',
  removalCodeSent: 'We have e-mailed you a 6-digit code to confirm the removal.',
  removalCodeWrong: 'This code is wrong. Please check the e-mail and try again.',
  removalVerified: 'Code confirmed.',
  removalNotVerified: 'Please confirm the removal with the e-mailed code first.',
  walletRemoved: 'The address is removed from your whitelist.',
  ipInvalid: 'Enter a valid IP address, e.g. 203.0.113.7.',
  ipExists: 'This IP address is already on your whitelist.',
  ipFirstMustBeCurrent:
    'Add the IP address you are using now first (shown above), so that you can still sign in.',
  ipRemoved: 'The IP address is removed from your whitelist.',
  ipRemoveCurrent:
    'You are using this IP address now: remove the other addresses first, or you could not sign in from here again.',
  passcodeFormat: 'Enter the 6-digit code from your authenticator app.',
  ipExplainer:
    'Once you whitelist an IP address, you can sign in only from the addresses on this list. Sign-in from any other address is refused and we e-mail you.',
} as const;

/** 5 shown at first; View More shows 5 more (001 §2). */
export const WHITELIST_PAGE_STEP = 5;
/** The spec's type for a wallet created in the whitelist (001 §3). */
export const WHITELISTED_WALLET_TYPE = 99;
export const WALLET_USABLE_AFTER_HOURS = 24;

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Spec 001 §5: 2FA codes are 6 digits; a typo is refused here, before it counts as a wrong try. */
const passcodeSchema = z
  .string({ error: WHITELIST_TEXTS.passcodeRequired })
  .trim()
  .min(1, WHITELIST_TEXTS.passcodeRequired)
  .regex(/^\d{6}$/, WHITELIST_TEXTS.passcodeFormat);
const limitSchema = z.coerce.number().int().min(1).max(500).default(WHITELIST_PAGE_STEP);

/** "********" and the address's last 4 characters (001 §2). */
export function maskAddress(address: string): string {
  return `********${address.slice(-4)}`;
}

// ---- wallet whitelisting ----

export const WhitelistedWalletSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Masked: 8 asterisks and the last 4 characters. */
  address: z.string(),
  coin_id: CoinIdSchema,
  /** XRP: the destination tag given with it. */
  tag: z.string().nullable(),
  type: z.literal(WHITELISTED_WALLET_TYPE),
  created_at: isoDateTime,
  /** Withdrawals to it are possible from this moment (24 hours after it was added). */
  usable_from: isoDateTime,
  usable: z.boolean(),
});
export type WhitelistedWallet = z.infer<typeof WhitelistedWalletSchema>;

export const listWhitelistedWallets = defineEndpoint({
  method: 'GET',
  path: '/api/v1/wallet-address/list',
  summary:
    "The customer's whitelisted addresses, newest first: the first `limit` (View More asks for 5 more)",
  query: z.strictObject({ limit: limitSchema, coin: CoinIdSchema.optional() }),
  responses: { 200: z.object({ data: z.array(WhitelistedWalletSchema), total: z.number().int() }) },
});

export const CreateWhitelistedWalletBodySchema = z.strictObject({
  /** For xrp the client may append the tag after '?' (001 §5). */
  address: z
    .string({ error: WHITELIST_TEXTS.addressRequired })
    .trim()
    .min(1, WHITELIST_TEXTS.addressRequired)
    .max(150, WHITELIST_TEXTS.addressRequired),
  coin_id: CoinIdSchema,
  type: z.literal(WHITELISTED_WALLET_TYPE).default(WHITELISTED_WALLET_TYPE),
  passcode: passcodeSchema,
  label: z
    .string({ error: WHITELIST_TEXTS.labelRequired })
    .trim()
    .min(1, WHITELIST_TEXTS.labelRequired)
    .max(50, WHITELIST_TEXTS.labelTooLong),
});
export type CreateWhitelistedWalletBody = z.input<typeof CreateWhitelistedWalletBodySchema>;

export const createWhitelistedWallet = defineEndpoint({
  method: 'POST',
  path: '/api/v1/wallet-address/create',
  summary: 'Whitelist a withdrawal address (2FA on and a code); usable for withdrawals after 24 hours',
  body: CreateWhitelistedWalletBodySchema,
  responses: { 200: z.object({ data: WhitelistedWalletSchema, message: z.string() }) },
});

export const sendVerifyWalletRemoval = defineEndpoint({
  method: 'POST',
  path: '/api/v1/send-verify-wallet-address',
  summary: 'E-mail a code that confirms the removal of one whitelisted address',
  body: z.strictObject({ id: idParam, address: z.string().max(150).nullish() }),
  responses: { 200: z.object({ message: z.string() }) },
});

export const verifyWalletRemoval = defineEndpoint({
  method: 'POST',
  path: '/api/v1/verify-wallet-address',
  summary: 'Check the removal code of one whitelisted address (single use, 10 minutes, 5 tries)',
  body: z.strictObject({
    id: idParam,
    verify_code: z
      .string({ error: 'Enter the 6-digit code.' })
      .trim()
      .regex(/^\d{6}$/, 'Enter the 6-digit code.'),
  }),
  responses: { 200: z.object({ message: z.string() }) },
});

export const destroyWhitelistedWallet = defineEndpoint({
  method: 'DELETE',
  path: '/api/v1/wallet-address/destroy/{id}',
  summary: 'Remove a whitelisted address whose removal code was confirmed in the last 10 minutes',
  params: z.strictObject({ id: idParam }),
  responses: { 200: z.object({ message: z.string() }) },
});

// ---- IP whitelisting ----

export const WhitelistedIpSchema = z.object({
  id: z.string(),
  ip_address: z.string(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  created_at: isoDateTime,
});
export type WhitelistedIp = z.infer<typeof WhitelistedIpSchema>;

/** The customer's user_identification; any other value is a 404. */
const ownerParam = z.string().trim().min(1).max(40);

export const WhitelistIpBodySchema = z.strictObject({
  ip_address: z.union([z.ipv4(), z.ipv6()], { error: WHITELIST_TEXTS.ipInvalid }),
  passcode: passcodeSchema,
  city: z.string().trim().max(100).nullish(),
  country: z.string().trim().max(100).nullish(),
});
export type WhitelistIpBody = z.input<typeof WhitelistIpBodySchema>;

export const whitelistIp = defineEndpoint({
  method: 'POST',
  path: '/api/v1/ipaddress/{userIdentification}/whitelist',
  summary: 'Whitelist an IP address for sign-in (2FA on and a code); the first must be the one in use',
  params: z.strictObject({ userIdentification: ownerParam }),
  body: WhitelistIpBodySchema,
  responses: { 200: z.object({ data: WhitelistedIpSchema, message: z.string() }) },
});

export const fetchIpWhitelist = defineEndpoint({
  method: 'GET',
  path: '/api/v1/ipaddress/{userId}/fetchwhitelist',
  summary: "The customer's whitelisted IPs, newest first (the first `limit`), and the IP they use now",
  params: z.strictObject({ userId: ownerParam }),
  query: z.strictObject({ limit: limitSchema }),
  responses: {
    200: z.object({ data: z.array(WhitelistedIpSchema), total: z.number().int(), current_ip: z.string() }),
  },
});

export const removeWhitelistedIp = defineEndpoint({
  method: 'POST',
  path: '/api/v1/ipaddress/{userIdentification}/whitelist/{id}/remove',
  summary: 'Remove a whitelisted IP (2FA code)',
  params: z.strictObject({ userIdentification: ownerParam, id: idParam }),
  body: z.strictObject({ passcode: passcodeSchema }),
  responses: { 200: z.object({ message: z.string() }) },
});
