import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { DecimalStringSchema } from './money.js';
import { pageSchema } from './pagination.js';

/**
 * The dashboard (issue 6): what a customer holds and what it is worth, what
 * happened to their money, and the history file. Amounts are decimal strings
 * in the asset's full scale; the screen rounds them (coins 5, cash 2).
 */

/** One asset the customer holds. Keyed by coin_id (lower case, `btc`) for coins, by code (`GBP`) for fiats. */
export const AssetBalanceSchema = z.object({
  asset: z.string(),
  kind: z.enum(['fiat', 'coin']),
  /**
   * The spec's balance, the figure every screen shows: what can be spent or withdrawn now, the same as
   * available (pending amounts are excluded from the balance, spec 002 §7).
   */
  amount: DecimalStringSchema,
  /** What can be spent or withdrawn now. */
  available: DecimalStringSchema,
  /** Reserved by open orders and pending withdrawals: held_orders + held_withdrawals. */
  held: DecimalStringSchema,
  /** Held by open limit and stop orders. */
  held_orders: DecimalStringSchema,
  /** Held by withdrawals not yet paid or sent. */
  held_withdrawals: DecimalStringSchema,
  /** Locked in term deposits. */
  term_deposit: DecimalStringSchema,
  /** Everything owned in the asset: available + held + term_deposit. */
  total: DecimalStringSchema,
  /** total in GBP: coins at the current GBP bid, fiats at the market's rate; null while prices are stale. */
  gbp_value: DecimalStringSchema.nullable(),
  /** Share of the portfolio's GBP value, 2 decimals; null when the value is unknown. */
  percentage: DecimalStringSchema.nullable(),
  /** Coins only: the coin's flags (spec 000 section 3); absent means allowed. The dashboard disables the matching button. */
  disable_buy: z.boolean().optional(),
  disable_sell: z.boolean().optional(),
  disable_deposit: z.boolean().optional(),
  disable_withdraw: z.boolean().optional(),
});
export type AssetBalance = z.infer<typeof AssetBalanceSchema>;

export const BalanceQuerySchema = z.object({
  /** The spec passes the user's id; the server answers for the signed-in customer only. */
  user_id: z.string().max(40).optional(),
  percentage: z.enum(['true', 'false']).optional(),
});

export const BalancesSchema = z.object({
  /** The spec's shape: a list whose first item holds the balances. */
  data: z.tuple([
    z.object({
      balances: z.record(z.string(), AssetBalanceSchema),
      /** Keyed by coin_id: what is locked in term deposits. */
      term_deposit_balances: z.record(z.string(), z.object({ balance: DecimalStringSchema })),
      total_gbp: DecimalStringSchema,
      /** Some coin had no fresh price: its value and the total leave it out. */
      prices_stale: z.boolean(),
    }),
  ]),
});
export type Balances = z.infer<typeof BalancesSchema>;

export const getBalances = defineEndpoint({
  method: 'GET',
  path: '/api/v1/balance',
  summary: "The signed-in customer's balances with their GBP values and portfolio shares",
  query: BalanceQuerySchema,
  responses: { 200: BalancesSchema },
});

/**
 * The spec's types 1–6 plus the movements DECISIONS.md adds. 1 Buy, 2 Sell,
 * 3 crypto deposit, 4 crypto withdrawal, 5 fiat deposit, 6 fiat withdrawal.
 */
export const TRANSACTION_TYPES = {
  1: 'Buy',
  2: 'Sell',
  3: 'Deposit',
  4: 'Withdraw',
  5: 'Deposit',
  6: 'Withdraw',
  7: 'Term deposit lock',
  8: 'Term deposit maturity',
  9: 'Referral payout',
  10: 'Fee',
  11: 'Adjustment',
  12: 'Referral commission',
} as const;
export type TransactionType = keyof typeof TRANSACTION_TYPES;

export const HISTORY_FILTERS = ['buy', 'sell', 'deposit', 'withdraw'] as const;
export const HistoryFilterSchema = z.enum(HISTORY_FILTERS);
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;
export const HISTORY_PAGE_SIZE = 10;

export const TransactionSchema = z.object({
  /** The ledger journal's id: the transaction's reference. */
  id: z.string(),
  transaction_type: z.number().int().min(1).max(12),
  /** How the type reads on screen. */
  label: z.string(),
  /** Whether the customer's balance in coin_symbol went up or down. */
  direction: z.enum(['in', 'out']),
  /** The asset that moved: the coin of a trade, otherwise the asset of the customer's movement. */
  coin_symbol: z.string(),
  /** The customer's movement in that asset, unsigned. */
  amount: DecimalStringSchema,
  /** The cash side of a trade (GBP, EUR, USD), else the moved fiat, else null. */
  currency_code: z.string().nullable(),
  currency_symbol: z.string().nullable(),
  /** GBP paid for a buy (at the ask). */
  purchase_amount_gbp: DecimalStringSchema.nullable(),
  /** GBP received for a sell (at the bid). */
  sell_amount_gbp: DecimalStringSchema.nullable(),
  /** The transaction's value in GBP: the cash leg, or the valuation recorded when it happened; null when none was. */
  gbp_amount: DecimalStringSchema.nullable(),
  /** The fee taken, in currency_code (or the coin for a coin withdrawal); "0" when none. */
  fee: DecimalStringSchema,
  /** A trade's price per coin in currency_code, as it executed; null for any other movement. */
  price: DecimalStringSchema.nullable(),
  /** A trade's cash in currency_code, fee included: what a buy paid or a sell received; null otherwise. */
  net_amount: DecimalStringSchema.nullable(),
  created_at: z.string(),
  /**
   * completed: the money moved (a ledger journal). pending: a withdrawal requested, its amount held,
   * not yet paid or sent (GET /api/v1/user/pending-transactions); it becomes a completed one when it is.
   */
  status: z.enum(['completed', 'pending']),
  /** How the status reads on screen: "Completed", or the withdrawal's own ("Pending", "Approved", "Awaiting code"). */
  status_label: z.string(),
});
export type Transaction = z.infer<typeof TransactionSchema>;
export const COMPLETED_STATUS_LABEL = 'Completed';

const FilterListSchema = z
  .union([HistoryFilterSchema, z.array(HistoryFilterSchema).max(HISTORY_FILTERS.length)])
  .optional();
const asList = (value: HistoryFilter | HistoryFilter[] | undefined): HistoryFilter[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** `filter[]=buy&filter[]=sell` (the spec's form) or `filter=buy`; none: everything. `coin_id`: only that asset. */
export const HistoryQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    filter: FilterListSchema,
    'filter[]': FilterListSchema,
    coin_id: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]{2,10}$/, 'Unknown asset.')
      .optional(),
  })
  .transform(({ 'filter[]': bracketed, filter, ...rest }) => ({
    ...rest,
    filter: [...new Set([...asList(filter), ...asList(bracketed)])],
  }));
export type HistoryQuery = z.input<typeof HistoryQuerySchema>;

export const HistoryPageSchema = pageSchema(TransactionSchema);
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

export const listHistory = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/fiat-crypto-transactions',
  summary: "The signed-in customer's transactions, newest first, 10 a page",
  query: HistoryQuerySchema,
  responses: { 200: HistoryPageSchema },
});

export const PendingTransactionsSchema = z.object({ data: z.array(TransactionSchema) });
export type PendingTransactions = z.infer<typeof PendingTransactionsSchema>;

/**
 * The customer's withdrawals still waiting to be paid or sent, newest first, each with its status (what
 * Recent Activity lists above the history). Same filters as the history: only Withdraw and All show them.
 */
export const listPendingTransactions = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/pending-transactions',
  summary: "The signed-in customer's pending withdrawals, newest first",
  query: HistoryQuerySchema,
  responses: { 200: PendingTransactionsSchema },
});

export const CoinHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  coin: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]{2,10}$/, 'Unknown asset.'),
});

export const listCoinHistory = defineEndpoint({
  method: 'GET',
  path: '/api/v1/user/transactions',
  summary: "The signed-in customer's transactions in one asset, newest first",
  query: CoinHistoryQuerySchema,
  responses: { 200: HistoryPageSchema },
});

/** The columns of `Crypto History.csv`, in order. */
export const HISTORY_CSV_COLUMNS = [
  'date',
  'type',
  'asset',
  'amount',
  'currency',
  'price',
  'gbp_value',
  'fee',
  'net_amount',
  'reference',
] as const;
export const HISTORY_CSV_FILENAME = 'Crypto History.csv';
export const exportHistoryPath = '/api/v1/crypto/transactions/export';

export const MotdSchema = z.object({
  data: z.object({ id: z.string(), message: z.string() }).nullable(),
});
export type Motd = z.infer<typeof MotdSchema>;

export const getMotd = defineEndpoint({
  method: 'GET',
  path: '/api/v1/motd',
  summary: 'The message of the day showing now, if any',
  responses: { 200: MotdSchema },
});

/** Staff (superadmin, support) write messages of the day with the times they show between. */
export const MotdInputSchema = z
  .strictObject({
    message: z.string().trim().min(1, 'Write a message.').max(280, 'At most 280 characters.'),
    starts_at: z.iso.datetime({ offset: true, message: 'Give a date and time.' }),
    ends_at: z.iso.datetime({ offset: true, message: 'Give a date and time.' }),
  })
  .refine((value) => new Date(value.ends_at) > new Date(value.starts_at), {
    path: ['ends_at'],
    message: 'The end must be after the start.',
  });
export type MotdInput = z.infer<typeof MotdInputSchema>;

export const AdminMotdSchema = z.object({
  id: z.string(),
  message: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});
export type AdminMotd = z.infer<typeof AdminMotdSchema>;

export const listAdminMotds = defineEndpoint({
  method: 'GET',
  path: '/api/admin/motd',
  summary: 'Messages of the day, newest start first',
  responses: { 200: z.object({ data: z.array(AdminMotdSchema) }) },
});

export const createAdminMotd = defineEndpoint({
  method: 'POST',
  path: '/api/admin/motd',
  summary: 'Schedule a message of the day',
  body: MotdInputSchema,
  responses: { 201: AdminMotdSchema },
});

export const deleteAdminMotd = defineEndpoint({
  method: 'DELETE',
  path: '/api/admin/motd/{id}',
  summary: 'Withdraw a message of the day',
  params: z.object({ id: z.string().regex(/^\d{1,18}$/) }),
  responses: { 204: z.null() },
});
