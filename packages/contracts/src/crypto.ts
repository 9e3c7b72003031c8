import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { MAX_ASSET_SCALE } from '@florin/domain';
import { DecimalStringSchema, upTo } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * Crypto in (issue 8; spec 001 §2 "Crypto deposit view", §7
 * generate-deposit-address and wallet-addresses): per-customer deposit
 * addresses (an XRP destination tag on the house address), deposits seen on
 * the chain with their confirmations, and the staff side: the simulated
 * chain and the XRP suspense list. Texts in quotes in the spec are kept word
 * for word.
 */

export const CRYPTO_TEXTS = {
  // spec 001 §2
  contactSupport: 'Please contact support to have a unique wallet assigned to your account',
  // ours (docs/decisions/047-crypto-deposits.md)
  addressGenerated: 'Your deposit address is ready.',
  tagGenerated: 'Your destination tag is ready. Always send XRP with it.',
  xrpTagWarning: 'Deposits without this destination tag cannot be credited automatically: always include it.',
  depositNotInSuspense: 'This deposit is not in the suspense list.',
  depositAssigned: 'The deposit is credited to the customer.',
  depositReturned: 'The deposit is marked as returned to the sender.',
  customerNotFound: 'No customer has this id.',
  customerNotLive: 'The customer is not live or is on hold: they cannot receive deposits.',
  unknownAddress: 'This address is not valid for the coin.',
  broadcast: 'The transaction is in the simulated mempool.',
  mined: 'Blocks mined.',
  dropped: 'The transaction was removed from the simulated chain.',
  notDroppable: 'Only a transaction that is not yet credited can be removed.',
} as const;

/** The coins that move on chains, by asset code, and their spec coin_id. */
export const CRYPTO_ASSETS = ['BTC', 'ETH', 'LTC', 'BCH', 'XRP'] as const;
export const CryptoAssetSchema = z.enum(CRYPTO_ASSETS);
export type CryptoAsset = z.infer<typeof CryptoAssetSchema>;

export const COIN_IDS = ['btc', 'eth', 'ltc', 'bch', 'xrp'] as const;
export const CoinIdSchema = z.enum(COIN_IDS, { error: 'Unknown coin.' });
export type CoinId = z.infer<typeof CoinIdSchema>;

export function assetOfCoinId(coinId: CoinId): CryptoAsset {
  return coinId.toUpperCase() as CryptoAsset;
}
export function coinIdOfAsset(asset: CryptoAsset): CoinId {
  return asset.toLowerCase() as CoinId;
}

const isoDateTime = z.string();
const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

// ---- customer: deposit addresses ----

/** The spec's wallet (001 §3: coin_id, address, tag), with what the deposit view shows beside it. */
export const DepositWalletSchema = z.object({
  coin_id: CoinIdSchema,
  address: z.string(),
  /** XRP only: the customer's destination tag, shown as prominently as the address. */
  tag: z.string().nullable(),
  /** Confirmations a deposit needs before it is credited (the coin's setting). */
  confirmations: z.number().int().min(1),
  created_at: isoDateTime,
});
export type DepositWallet = z.infer<typeof DepositWalletSchema>;

/**
 * Why a coin has no address to show: deposits switched off for the coin
 * (`deposits_disabled`), the account not live or on hold (`account_not_live`),
 * its verification incomplete (`verification_incomplete`, spec 000 §6), or no
 * address source configured (`not_configured`). The view then shows
 * `message`: the spec's 'contact support' text, or what to finish. An XRP tag that was never
 * generated is not listed here: the view offers 'Generate Address'.
 */
export const DEPOSIT_UNAVAILABLE_REASONS = [
  'deposits_disabled',
  'account_not_live',
  'verification_incomplete',
  'not_configured',
] as const;
export const DepositUnavailableSchema = z.object({
  coin_id: CoinIdSchema,
  reason: z.enum(DEPOSIT_UNAVAILABLE_REASONS),
  message: z.string(),
});
export type DepositUnavailable = z.infer<typeof DepositUnavailableSchema>;

export const WalletAddressesQuerySchema = z.strictObject({
  coin: z.union([CoinIdSchema, z.literal('all')]).default('all'),
});

export const listWalletAddresses = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/wallet-addresses',
  summary:
    "The customer's deposit addresses (coin=all or one coin_id). BTC, LTC, BCH and ETH are assigned on first view; XRP needs generate-deposit-address",
  query: WalletAddressesQuerySchema,
  responses: {
    200: z.object({ data: z.array(DepositWalletSchema), unavailable: z.array(DepositUnavailableSchema) }),
  },
});

export const generateDepositAddress = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/generate-deposit-address/{coin_id}',
  summary:
    'Assign the customer their deposit address for a coin (XRP: a destination tag on the house address); the same one on every call',
  params: z.strictObject({ coin_id: CoinIdSchema }),
  responses: { 200: z.object({ data: DepositWalletSchema, message: z.string() }) },
});

// ---- customer: deposits on their way ----

export const CRYPTO_DEPOSIT_STATUSES = ['pending', 'credited', 'dropped', 'suspense', 'returned'] as const;
export const CryptoDepositStatusSchema = z.enum(CRYPTO_DEPOSIT_STATUSES);
export type CryptoDepositStatus = z.infer<typeof CryptoDepositStatusSchema>;

/**
 * Lifecycle (CONVENTIONS 7): seen → credited, dropped (reorganised away) or suspense (untagged XRP);
 * a dropped payment that comes back on the chain is pending again.
 */
export const CRYPTO_DEPOSIT_TRANSITIONS: Record<CryptoDepositStatus, readonly CryptoDepositStatus[]> = {
  pending: ['credited', 'dropped', 'suspense'],
  suspense: ['credited', 'returned'],
  credited: [],
  dropped: ['pending'],
  returned: [],
};

export const CRYPTO_DEPOSIT_STATUS_LABELS: Record<CryptoDepositStatus, string> = {
  pending: 'Pending',
  credited: 'Completed',
  dropped: 'Dropped',
  suspense: 'In review',
  returned: 'Returned',
};

export const CryptoDepositSchema = z.object({
  id: z.string(),
  coin_id: CoinIdSchema,
  amount: DecimalStringSchema,
  txid: z.string(),
  address: z.string(),
  tag: z.string().nullable(),
  status: CryptoDepositStatusSchema,
  status_label: z.string(),
  confirmations: z.number().int().min(0),
  required_confirmations: z.number().int().min(1),
  created_at: isoDateTime,
  credited_at: isoDateTime.nullable(),
});
export type CryptoDeposit = z.infer<typeof CryptoDepositSchema>;

export const CRYPTO_DEPOSITS_PAGE_SIZE = 20;

export const listCryptoDeposits = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/crypto-deposits',
  summary:
    "The customer's crypto deposits seen on the chain, newest first; status=pending for those still counting confirmations",
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    coin: CoinIdSchema.optional(),
    status: z.enum(['pending', 'credited']).optional(),
  }),
  responses: { 200: pageSchema(CryptoDepositSchema) },
});

// ---- back office: deposits and the XRP suspense list (finance) ----

export const AdminCryptoDepositSchema = CryptoDepositSchema.extend({
  asset: CryptoAssetSchema,
  output: z.number().int(),
  user_id: z.number().int().nullable(),
  user_identification: z.string().nullable(),
  customer_name: z.string().nullable(),
  resolution_note: z.string().nullable(),
  resolved_at: isoDateTime.nullable(),
});
export type AdminCryptoDeposit = z.infer<typeof AdminCryptoDepositSchema>;

export const listAdminCryptoDeposits = defineEndpoint({
  method: 'GET',
  path: '/api/admin/crypto/deposits',
  summary: 'Crypto deposits seen on the chains, newest first; status=suspense for the suspense list',
  query: z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    status: CryptoDepositStatusSchema.optional(),
  }),
  responses: { 200: pageSchema(AdminCryptoDepositSchema) },
});

const ReasonSchema = z
  .string({ error: 'Please give the reason.' })
  .trim()
  .min(1, 'Please give the reason.')
  .max(500, 'The reason may be at most 500 characters.');

export const assignCryptoDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/deposits/{id}/assign',
  summary: 'Credit a deposit in suspense (an XRP payment without a known tag) to a chosen customer',
  params: z.strictObject({ id: idParam }),
  body: z.strictObject({
    user_id: z.coerce.number().int().positive().max(2_147_483_647),
    reason: ReasonSchema,
  }),
  responses: { 200: z.object({ data: AdminCryptoDepositSchema, message: z.string() }) },
});

export const returnCryptoDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/deposits/{id}/return',
  summary: 'Mark a deposit in suspense as returned to its sender (sent back from cold storage)',
  params: z.strictObject({ id: idParam }),
  body: z.strictObject({ reason: ReasonSchema }),
  responses: { 200: z.object({ data: AdminCryptoDepositSchema, message: z.string() }) },
});

// ---- the simulated chain (the embedded default; staff and dev only) ----

export const SimulatedDepositBodySchema = z.strictObject({
  asset: CryptoAssetSchema,
  address: z.string().trim().min(1).max(120),
  /** XRP: the destination tag, when the sender gave one. */
  tag: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/)
    .nullish(),
  amount: upTo(z.string().regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 0.5.'), MAX_ASSET_SCALE),
  /** Leave empty for a random one. */
  txid: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{8,80}$/)
    .nullish(),
});
export type SimulatedDepositBody = z.input<typeof SimulatedDepositBodySchema>;

export const SimulatedTransactionSchema = z.object({
  asset: CryptoAssetSchema,
  txid: z.string(),
  output: z.number().int(),
  address: z.string(),
  tag: z.string().nullable(),
  amount: DecimalStringSchema,
  block_height: z.number().int().nullable(),
  dropped: z.boolean(),
});

export const broadcastSimulatedDeposit = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/simulated-chain/deposit',
  summary: 'Put a payment to an address into the simulated mempool (simulated chain only)',
  body: SimulatedDepositBodySchema,
  responses: { 200: z.object({ data: SimulatedTransactionSchema, message: z.string() }) },
});

export const MineBodySchema = z.strictObject({
  asset: CryptoAssetSchema,
  blocks: z.coerce.number().int().min(1).max(1_000).default(1),
});

export const mineSimulatedBlocks = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/simulated-chain/mine',
  summary:
    'Mine blocks on the simulated chain (the mempool goes into the first), then run the deposit watcher',
  body: MineBodySchema,
  responses: {
    200: z.object({
      data: z.object({ asset: CryptoAssetSchema, height: z.number().int() }),
      message: z.string(),
    }),
  },
});

export const dropSimulatedTransaction = defineEndpoint({
  method: 'POST',
  path: '/api/admin/crypto/simulated-chain/drop',
  summary: 'Reorganise a transaction away (simulated chain only); a deposit not yet credited disappears',
  body: z.strictObject({ asset: CryptoAssetSchema, txid: z.string().trim().min(1).max(120) }),
  responses: { 200: z.object({ message: z.string() }) },
});
