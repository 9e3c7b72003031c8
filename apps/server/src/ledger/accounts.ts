import { sql, type Kysely, type Transaction } from 'kysely';
import { isAssetCode, type AssetCode } from '@florin/domain';
import { z } from 'zod';
import type { DB } from '../db/schema.js';
import type { SqlFact } from '../db/sql-fact.js';

/** The house's books (peatio's chart of accounts). No non-negative rule: bank and custody go negative as customers deposit. */
export const HOUSE_KINDS = [
  'bank',
  'custody',
  'inventory',
  'fee_revenue',
  'spread_revenue',
  'withdrawal_fee_revenue',
  'interest_expense',
  'referral_expense',
  'network_fee_expense',
  'suspense',
] as const;
export type HouseKind = (typeof HOUSE_KINDS)[number];

/** A customer's accounts: what they can spend, one per term deposit, and affiliate earnings. Never negative. */
export const USER_KINDS = ['available', 'term', 'affiliate'] as const;
export type UserKind = (typeof USER_KINDS)[number];

export type UserAccountRef = {
  asset: AssetCode;
  kind: UserKind;
  ownerUserId: string;
  /** Tells apart several accounts of one kind, e.g. the term deposit's id. */
  reference?: string;
};
export type HouseAccountRef = { asset: AssetCode; kind: HouseKind };
export type AccountRef = UserAccountRef | HouseAccountRef;

export type Executor = Kysely<DB> | Transaction<DB>;

export function isUserAccount(ref: AccountRef): ref is UserAccountRef {
  return 'ownerUserId' in ref;
}

export function accountKey(ref: AccountRef): string {
  return isUserAccount(ref)
    ? `${ref.asset}:${ref.kind}:${ref.ownerUserId}:${ref.reference ?? ''}`
    : `${ref.asset}:${ref.kind}`;
}

export type ResolvedAccount = { id: string; isHouse: boolean; asset: AssetCode };

/**
 * Finds (creating when missing) every account the refs name, in one or two
 * statements. Accounts are created lazily: a customer has no BTC account
 * until BTC first moves for them.
 */
export async function resolveAccounts(
  db: Executor,
  refs: readonly AccountRef[],
  /** House account ids never change, so the ledger keeps them after the first look-up. */
  houseCache: Map<string, ResolvedAccount>,
): Promise<Map<string, ResolvedAccount>> {
  const resolved = new Map<string, ResolvedAccount>();
  const cache = houseCache;
  const wanted = new Map<string, AccountRef>();
  for (const ref of refs) {
    if (!isAssetCode(ref.asset)) throw new Error(`unknown asset ${String(ref.asset)}`);
    const key = accountKey(ref);
    const cached = isUserAccount(ref) ? undefined : cache.get(key);
    if (cached) resolved.set(key, cached);
    else wanted.set(key, ref);
  }
  if (wanted.size === 0) return resolved;

  const rows = (list: AccountRef[]) =>
    list.map((ref) => ({
      asset: ref.asset,
      kind: ref.kind,
      owner_user_id: isUserAccount(ref) ? ref.ownerUserId : null,
      reference: isUserAccount(ref) ? (ref.reference ?? '') : '',
    }));
  type AccountRow = {
    id: string;
    asset: string;
    kind: string;
    owner_user_id: string | null;
    reference: string;
    is_house: boolean;
  };
  /** Customer accounts by a join on the refs (one index probe each, however many); house ones by name. */
  const find = async (list: AccountRef[]): Promise<AccountRow[]> => {
    const owned = rows(list.filter(isUserAccount));
    const house = rows(list.filter((ref) => !isUserAccount(ref)));
    const found: AccountRow[] = [];
    if (owned.length > 0) {
      const result = await sql<AccountRow>`
        SELECT a.id, a.asset, a.kind, a.owner_user_id, a.reference, a.is_house
        FROM unnest(${owned.map((key) => key.asset)}::text[], ${owned.map((key) => key.kind)}::text[],
                    ${owned.map((key) => key.owner_user_id)}::bigint[], ${owned.map((key) => key.reference)}::text[])
          AS t (asset, kind, owner, reference)
        JOIN accounts a ON a.asset = t.asset AND a.kind = t.kind AND a.owner_user_id = t.owner
          AND a.reference = t.reference`.execute(db);
      found.push(...result.rows);
    }
    if (house.length > 0) {
      found.push(
        ...(await db
          .selectFrom('accounts')
          .select(['id', 'asset', 'kind', 'owner_user_id', 'reference', 'is_house'])
          .where('owner_user_id', 'is', null)
          .where((eb) =>
            eb.or(
              house.map((key) =>
                eb.and([
                  eb('asset', '=', key.asset),
                  eb('kind', '=', key.kind),
                  eb('reference', '=', key.reference),
                ]),
              ),
            ),
          )
          .execute()),
      );
    }
    return found;
  };
  const select = async (list: AccountRef[]) => {
    for (const row of await find(list)) {
      const ref: AccountRef = row.is_house
        ? { asset: row.asset as AssetCode, kind: row.kind as HouseKind }
        : {
            asset: row.asset as AssetCode,
            kind: row.kind as UserKind,
            ownerUserId: row.owner_user_id ?? '',
            reference: row.reference || undefined,
          };
      const key = accountKey(ref);
      const account = { id: row.id, isHouse: row.is_house, asset: row.asset as AssetCode };
      resolved.set(key, account);
      if (account.isHouse) cache.set(key, account);
      wanted.delete(key);
    }
  };

  await select([...wanted.values()]);
  // Only customer accounts are created here. House accounts exist from the
  // migration on, so a rolled-back transaction can never leave a cached id behind.
  const missing = [...wanted.values()].filter(isUserAccount);
  if (missing.length > 0) {
    await db
      .insertInto('accounts')
      .values(
        rows(missing).map((row) => ({
          ...row,
          is_house: row.owner_user_id === null,
          non_negative: row.owner_user_id !== null,
        })),
      )
      .onConflict((oc) => oc.constraint('accounts_identity').doNothing())
      .execute();
    await select(missing);
  }
  if (wanted.size > 0) throw new Error(`could not resolve accounts ${[...wanted.keys()].join(', ')}`);
  return resolved;
}

export type Balance = { posted: bigint; held: bigint; available: bigint };

/**
 * An account's balance: a house account's includes the postings not yet rolled up (decision 118: one
 * definition). Only house accounts have them (the checker's invariant), so a customer's read skips the sum:
 * between roll-ups the planner may read the whole table for it.
 */
const BALANCE = sql<string>`posted + CASE WHEN accounts.is_house
  THEN coalesce((select sum(d.amount) from house_balance_deltas d where d.account_id = accounts.id), 0)
  ELSE 0 END`;

/** A customer account's getBalance, read inside another module's statement (a quote's single read). */
export function balanceFact(ref: UserAccountRef): SqlFact<Balance> {
  return {
    select: sql<unknown>`(SELECT json_build_object('posted', (${BALANCE})::text, 'held', held::text) FROM accounts
      WHERE asset = ${ref.asset} AND kind = ${ref.kind} AND owner_user_id = ${ref.ownerUserId}
        AND reference = ${ref.reference ?? ''})`,
    read: (raw) => {
      if (raw === null) return { posted: 0n, held: 0n, available: 0n };
      const row = z.object({ posted: z.string(), held: z.string() }).parse(raw);
      const posted = BigInt(row.posted);
      const held = BigInt(row.held);
      return { posted, held, available: posted - held };
    },
  };
}

/** What an account holds now; a house account includes the postings not yet rolled up. */
export async function getBalance(db: Executor, ref: AccountRef): Promise<Balance> {
  const row = await db
    .selectFrom('accounts')
    .select(['posted', 'held', BALANCE.as('balance')])
    .where('asset', '=', ref.asset)
    .where('kind', '=', ref.kind)
    .where((eb) =>
      isUserAccount(ref) ? eb('owner_user_id', '=', ref.ownerUserId) : eb('owner_user_id', 'is', null),
    )
    .where('reference', '=', isUserAccount(ref) ? (ref.reference ?? '') : '')
    .executeTakeFirst();
  if (!row) return { posted: 0n, held: 0n, available: 0n };
  const posted = BigInt(row.balance);
  const held = BigInt(row.held);
  return { posted, held, available: posted - held };
}
