import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

/**
 * API tokens (issue 10; spec 002 §2.2 "API.", §3 "Api token", §4, §6, §7, §8).
 * A token is shown once, when it is made; the server keeps only its hash, and
 * lists it by a masked prefix (DECISIONS.md). `Authorization: Bearer flr_…`
 * then signs API calls in as the token's customer, limited by its permission.
 * Tokens are managed only from a signed-in browser: a token cannot make,
 * list or delete tokens.
 */

export const API_TOKEN_TEXTS = {
  // spec 002 §8
  failed: 'Something went wrong. Please contact the admin.',
  generated: 'API Token generated.',
  deleted: 'API Token successfully deleted.',
  // ours (docs/decisions/052-api-tokens-and-public-api.md)
  shownOnce: 'Copy this token now: it is shown only once.',
  alreadyHasToken: 'You already have an API token. Use Generate Another to add one with a permission.',
  tooMany: 'You have the most API tokens allowed. Delete one before generating another.',
  permissionRequired: 'Please choose a permission.',
  ipInvalid: 'Enter IP addresses or ranges, e.g. 203.0.113.7 or 203.0.113.0/24.',
  tokenRefused: 'This API token is not valid.',
  notPermitted: 'This API token does not have the permission for this call.',
  savedAddressOnly: 'This API token may withdraw only to a saved (whitelisted) address.',
  ipNotAllowed: 'This API token may not be used from this IP address.',
  tokensCannotManageTokens: 'API tokens cannot be used to manage API tokens. Please sign in.',
  rateLimited: 'Too many requests with this API token. Please wait a minute and try again.',
  // The API tab (spec 002 §2.2 "API.": Generate Another, and the table's API, Created, Permission, Delete)
  intro:
    'An API token lets your own programs use your Florin account, as far as the token’s permission allows. Send it in this header:',
  headerExample: 'Authorization: Bearer flr_…',
  docsLink: 'API documentation',
  generateFirst: 'Generate Token',
  firstIsRead:
    'Your first token has the READ permission. Use Generate Another for a token that may trade or withdraw.',
  generateAnother: 'Generate Another',
  anotherTitle: 'Generate another API token',
  permissionLabel: 'Permission',
  permissionPlaceholder: 'Choose a permission',
  ipLabel: 'Allowed IP addresses (optional)',
  ipHint:
    'One address or range per line, e.g. 203.0.113.7 or 203.0.113.0/24. Leave empty to allow any address.',
  generate: 'Generate',
  cancel: 'Cancel',
  tokenLabel: 'Your new API token',
  shownOnceDetail:
    'You will not see it again: once you close this window only its first characters are shown. If you lose it, delete it and generate another.',
  copy: 'Copy',
  copied: 'Copied',
  done: 'I have copied it',
  tableTitle: 'Your API tokens',
  api: 'API',
  created: 'Created',
  permission: 'Permission',
  delete: 'Delete',
  deletedLabel: 'Deleted',
  anyIp: 'Any IP address',
  allowedIps: 'Allowed IPs',
  empty: 'You have no API tokens yet.',
  deleteTitle: 'Delete API token?',
  deleteQuestion:
    'Programs using this token stop working at once. This cannot be undone: the token stays in the list, struck through.',
  deleteConfirm: 'Delete token',
  deleteKeep: 'Keep it',
} as const;

/** What each permission lets a program do (the API tab's permission choice). */
export const API_TOKEN_PERMISSION_HINTS = {
  1: 'Read balances, history, orders and positions.',
  2: 'Read, and withdraw crypto to your saved (whitelisted) addresses only.',
  3: 'Read, and withdraw crypto to any address. Every withdrawal check still applies.',
  4: 'Read, get quotes and trade: instant, market and limit orders.',
} as const satisfies Record<1 | 2 | 3 | 4, string>;

/** Spec 002 §6. */
export const API_TOKEN_PERMISSIONS = {
  1: 'READ',
  2: 'WITHDRAW SAVED ADDRESS',
  3: 'WITHDRAW ANY ADDRESS',
  4: 'TRADE',
} as const;
export type ApiTokenPermissionId = keyof typeof API_TOKEN_PERMISSIONS;
export const API_TOKEN_PERMISSION_IDS = [1, 2, 3, 4] as const satisfies readonly ApiTokenPermissionId[];

/** Withdrawals only to saved (whitelisted) addresses. */
export const WITHDRAW_SAVED_ADDRESS_PERMISSION = 2 satisfies ApiTokenPermissionId;

/** The first token (POST /api/v1/settings/api-token) reads only (DECISIONS.md). */
export const FIRST_API_TOKEN_PERMISSION: ApiTokenPermissionId = 1;
/** Live (not deleted) tokens a customer may hold at once. */
export const MAX_LIVE_API_TOKENS = 10;
/** Entries in one token's IP allowlist. */
export const MAX_API_TOKEN_IPS = 20;
/** Every token starts so, which tells it from a session token. */
export const API_TOKEN_PREFIX = 'flr_';

/** `flr_ab12…`: the prefix kept in the database, then an ellipsis. */
export function maskApiToken(prefix: string): string {
  return `${prefix}…`;
}

const isoDateTime = z.string();

export const PermissionIdSchema = z.coerce
  .number({ error: API_TOKEN_TEXTS.permissionRequired })
  .int(API_TOKEN_TEXTS.permissionRequired)
  .min(1, API_TOKEN_TEXTS.permissionRequired)
  .max(4, API_TOKEN_TEXTS.permissionRequired);

const IpOrRangeSchema = z
  .string()
  .trim()
  .pipe(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: API_TOKEN_TEXTS.ipInvalid }));

export const ApiTokenSchema = z.object({
  id: z.string(),
  /** Masked: the token's first 8 characters and an ellipsis. The token itself is never shown again. */
  api_token: z.string(),
  created_at: isoDateTime,
  /** Set: the token is deleted (the table strikes it through). */
  deleted_at: isoDateTime.nullable(),
  api_token_permission_id: z.number().int(),
  /** IPs or CIDR ranges the token may be used from; null: any address. */
  ip_allowlist: z.array(z.string()).nullable(),
  last_used_at: isoDateTime.nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** A new token: `data.token` is the only time the token is shown. */
export const NewApiTokenSchema = z.object({
  message: z.string(),
  data: z.object({ token: z.string(), api_token: ApiTokenSchema }),
});
export type NewApiToken = z.infer<typeof NewApiTokenSchema>;

export const GenerateApiTokenBodySchema = z.strictObject({
  permission_id: PermissionIdSchema,
  /** Omitted, null or empty: the token works from any address. */
  ip_allowlist: z
    .array(IpOrRangeSchema)
    .max(MAX_API_TOKEN_IPS, `At most ${MAX_API_TOKEN_IPS} addresses or ranges.`)
    .nullable()
    .optional(),
});
export type GenerateApiTokenBody = z.input<typeof GenerateApiTokenBodySchema>;

const idParam = z.string().trim().min(1).max(64);

export const createFirstApiToken = defineEndpoint({
  method: 'POST',
  path: '/api/v1/settings/api-token',
  summary: "Generate the customer's first API token (READ); data.token is shown only this once",
  responses: { 200: NewApiTokenSchema },
});

export const generateApiToken = defineEndpoint({
  method: 'POST',
  path: '/api/v1/generate-api',
  summary:
    'Generate another API token with a permission and an optional IP allowlist; data.token is shown once',
  body: GenerateApiTokenBodySchema,
  responses: { 200: NewApiTokenSchema },
});

export const listApiTokens = defineEndpoint({
  method: 'GET',
  path: '/api/v1/get-api-tokens/{user_id}',
  summary: "The customer's API tokens, newest first, masked, deleted ones included",
  params: z.strictObject({ user_id: z.coerce.number().int().positive().max(2_147_483_647) }),
  responses: { 200: z.object({ data: z.array(ApiTokenSchema) }) },
});

export const deleteApiToken = defineEndpoint({
  method: 'POST',
  path: '/api/v1/delete-permission/{id}',
  summary: 'Delete an API token (soft: it stays listed, struck through, and stops working at once)',
  params: z.strictObject({ id: idParam }),
  responses: { 200: z.object({ message: z.string() }) },
});
