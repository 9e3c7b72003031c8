import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Kysely } from 'kysely';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_TEXTS,
  AppError,
  FIRST_API_TOKEN_PERMISSION,
  MAX_LIVE_API_TOKENS,
  maskApiToken,
  type ApiToken,
  type NewApiToken,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import type { ApiTokenGrant } from '../../http/auth.js';
import { hashToken, randomToken } from '../../security/secret-box.js';
import type { ApiTokenRepository, ApiTokenRow } from './repository.js';

/** 30 random bytes: 40 base64url characters after `flr_`. */
const TOKEN_BYTES = 30;
/** `flr_` and 4 characters: enough to tell tokens apart, far too little to guess one. */
const PREFIX_LENGTH = 8;
/** last_used_at is written at most this often, so a token's reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

/** The holder of a live token, from the address they called from. */
export type TokenHolder = ApiTokenGrant & { userId: number; terminatedAt: Date | null };

export type ApiTokenServiceDeps = {
  db: Kysely<DB>;
  repository: ApiTokenRepository;
};

function newToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
}

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    api_token: maskApiToken(row.prefix),
    created_at: row.created_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
    api_token_permission_id: row.permission_id,
    ip_allowlist: row.ip_allowlist,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

/** Whether `ip` is one of the allowlist's addresses or inside one of its ranges. */
export function isIpAllowed(allowlist: readonly string[] | null, ip: string): boolean {
  if (allowlist === null || allowlist.length === 0) return true;
  // Node gives IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d.
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowlist) {
    const [base = '', bits] = entry.split('/');
    const type = isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(bits), type);
  }
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * API tokens: made only from a browser session, shown once, kept as a hash,
 * deleted softly. `authenticate` finds a token's holder for the request hook.
 */
export function createApiTokenService(deps: ApiTokenServiceDeps) {
  const { db, repository } = deps;

  async function generate(
    userId: number,
    permissionId: number,
    ipAllowlist: string[] | null,
    options: { onlyIfNone: boolean },
  ): Promise<NewApiToken> {
    const token = newToken();
    const row = await db.transaction().execute(async (trx) => {
      if (!(await repository.lockCustomer(trx, userId))) throw new AppError('NOT_FOUND');
      const live = await repository.countLive(trx, userId);
      if (options.onlyIfNone && live > 0) throw new AppError('CONFLICT', API_TOKEN_TEXTS.alreadyHasToken);
      if (live >= MAX_LIVE_API_TOKENS) throw new AppError('CONFLICT', API_TOKEN_TEXTS.tooMany);
      return repository.insert(trx, {
        id: randomToken(18),
        userId,
        tokenHash: hashToken(token),
        prefix: token.slice(0, PREFIX_LENGTH),
        permissionId,
        ipAllowlist: ipAllowlist && ipAllowlist.length > 0 ? [...new Set(ipAllowlist)] : null,
      });
    });
    return { message: API_TOKEN_TEXTS.generated, data: { token, api_token: toApiToken(row) } };
  }

  return {
    /** POST /api/v1/settings/api-token: the first token, READ (DECISIONS.md). */
    async createFirst(userId: number): Promise<NewApiToken> {
      return generate(userId, FIRST_API_TOKEN_PERMISSION, null, { onlyIfNone: true });
    },

    /** POST /api/v1/generate-api: another token with the permission chosen. */
    async generateAnother(
      userId: number,
      body: { permission_id: number; ip_allowlist?: string[] | null },
    ): Promise<NewApiToken> {
      return generate(userId, body.permission_id, body.ip_allowlist ?? null, { onlyIfNone: false });
    },

    /** The caller's own tokens; another customer's id is a 404, as for one that does not exist. */
    async list(userId: number, requestedUserId: number): Promise<{ data: ApiToken[] }> {
      if (requestedUserId !== userId) throw new AppError('NOT_FOUND');
      return { data: (await repository.listForUser(userId)).map(toApiToken) };
    },

    /** Soft delete: the token stops working at once and stays listed. Deleting a deleted one is a 409. */
    async delete(userId: number, id: string): Promise<{ message: string }> {
      if (await repository.softDelete(userId, id)) return { message: API_TOKEN_TEXTS.deleted };
      if (await repository.exists(userId, id)) throw new AppError('CONFLICT', API_TOKEN_TEXTS.failed);
      throw new AppError('NOT_FOUND');
    },

    /**
     * The live token's holder. Unknown or deleted: 401. Outside the token's
     * IP allowlist: 403, before anything else about the route is said.
     */
    async authenticate(token: string, ip: string): Promise<TokenHolder> {
      const row = await repository.findLiveByHash(hashToken(token));
      if (!row) throw new AppError('UNAUTHENTICATED', API_TOKEN_TEXTS.tokenRefused);
      if (!isIpAllowed(row.ip_allowlist, ip)) throw new AppError('FORBIDDEN', API_TOKEN_TEXTS.ipNotAllowed);
      if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_EVERY_MS)
        await repository.touch(row.id);
      return {
        id: row.id,
        userId: row.user_id,
        permissionId: row.permission_id,
        terminatedAt: row.terminated_at,
      };
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;

/**
 * A fixed one-minute window per token, in this instance's memory: a cheap
 * brake on a runaway script, on top of the per-IP limit. Windows of tokens
 * not seen for a minute are dropped as others are counted.
 */
export function createTokenRateLimiter(maxPerMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return {
    /** Counts one request; false once the token's window is full. */
    take(tokenId: string): boolean {
      const at = now();
      if (windows.size > 10_000)
        for (const [id, window] of windows) if (at - window.startedAt >= 60_000) windows.delete(id);
      const window = windows.get(tokenId);
      if (!window || at - window.startedAt >= 60_000) {
        windows.set(tokenId, { startedAt: at, count: 1 });
        return true;
      }
      window.count += 1;
      return window.count <= maxPerMinute;
    },
  };
}

export type TokenRateLimiter = ReturnType<typeof createTokenRateLimiter>;
