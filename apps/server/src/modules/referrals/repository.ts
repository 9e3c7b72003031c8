import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ReferralPartnersTable } from '../../db/schema.js';
import { createReferralClaimRepository } from './claim-repository.js';

export type { ClaimRow, ClaimWithUser } from './claim-repository.js';

export type ReferralCustomer = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  status: number;
  block_status: number;
  account_type: 'Individual' | 'Corporate' | null;
  country: string | null;
  referral_code: string;
  has_totp: boolean;
  platform_2fa_mobile: boolean;
  login_notifications: boolean;
  loginout_notifications: boolean;
  is_sow_reset: number;
  two_factor_reset_at: Date | null;
  /** When the account closed or the firm's termination takes effect (withdraw-only from then). */
  terminated_at: Date | null;
  /** When the customer can no longer sign in (and so never claim). */
  access_ends_at: Date | null;
};

export type PartnerRow = Selectable<ReferralPartnersTable>;

export type UnaccruedTrade = {
  id: string;
  user_id: number;
  referrer_user_id: number;
  fiat: string;
  fee: string;
  notional: string;
  gbp_value: string;
  created_at: Date;
};

/**
 * The only place the referrals module builds queries: customers, the policy, partners and commissions
 * here, the claims (claim-repository.ts) beside it, as one object.
 */
export function createReferralRepository(db: Kysely<DB>) {
  const customers = (executor: Kysely<DB>) =>
    executor
      .selectFrom('users')
      .select([
        'users.id',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.status',
        'users.block_status',
        'users.account_type',
        'users.country',
        'users.referral_code',
        'users.platform_2fa_mobile',
        'users.login_notifications',
        'users.loginout_notifications',
        'users.is_sow_reset',
        'users.two_factor_reset_at',
        'users.terminated_at',
        'users.access_ends_at',
        sql<boolean>`users.totp_secret_encrypted IS NOT NULL`.as('has_totp'),
      ]);

  return {
    findCustomer(userId: number, executor: Kysely<DB> = db): Promise<ReferralCustomer | undefined> {
      return customers(executor).where('users.id', '=', userId).executeTakeFirst();
    },

    /**
     * Serialises one customer's claims: the balance check and the hold are decided under this lock.
     * NO KEY UPDATE: a trade or commission inserted meanwhile, which refers to the customer, need not wait for it.
     */
    async lockCustomer(executor: Kysely<DB>, userId: number): Promise<ReferralCustomer | undefined> {
      await executor.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
      return customers(executor).where('users.id', '=', userId).executeTakeFirst();
    },

    async getPolicy(executor: Kysely<DB> = db) {
      return executor
        .selectFrom('incentives_policy')
        .select(['policy', 'commission_percent', 'updated_at'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
    },

    async updatePolicy(executor: Kysely<DB>, values: { policy: string; commission_percent: string }) {
      return executor
        .updateTable('incentives_policy')
        .set({
          policy: values.policy as 'corporate_or_outside_uk',
          commission_percent: values.commission_percent,
          updated_at: new Date(),
        })
        .where('id', '=', 1)
        .returning(['policy', 'commission_percent', 'updated_at'])
        .executeTakeFirstOrThrow();
    },

    findPartner(userId: number, executor: Kysely<DB> = db): Promise<PartnerRow | undefined> {
      return executor
        .selectFrom('referral_partners')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    findPartnerBySlug(slug: string): Promise<PartnerRow | undefined> {
      return db.selectFrom('referral_partners').selectAll().where('slug', '=', slug).executeTakeFirst();
    },

    findReferralCodeOf(userId: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'referral_code'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    findUserByReferralCode(code: string) {
      return db
        .selectFrom('users')
        .select(['id', 'referral_code'])
        .where('referral_code', '=', code.toLowerCase())
        .executeTakeFirst();
    },

    async upsertPartner(
      executor: Kysely<DB>,
      userId: number,
      values: { has_custom_referral?: boolean; slug?: string | null; logo_url?: string | null },
    ): Promise<PartnerRow> {
      return executor
        .insertInto('referral_partners')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * The referred customers' trades with a fee that have no commission row
     * yet, oldest first. A trade commits once with its fee, so a trade found
     * here never changes afterwards.
     */
    findUnaccruedTrades(limit: number): Promise<UnaccruedTrade[]> {
      return db
        .selectFrom('trades as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .leftJoin('referral_commissions as rc', 'rc.trade_id', 't.id')
        .select([
          't.id',
          't.user_id',
          sql<number>`u.referred_by_user_id`.as('referrer_user_id'),
          't.fiat',
          't.fee',
          't.notional',
          't.gbp_value',
          't.created_at',
        ])
        .where('u.referred_by_user_id', 'is not', null)
        .where('rc.id', 'is', null)
        .where('t.fee', '>', '0')
        .orderBy('t.seq')
        .limit(limit)
        .execute();
    },

    /** undefined when another instance accrued the trade first. */
    insertCommission(
      executor: Kysely<DB>,
      values: {
        trade_id: string;
        referrer_user_id: number;
        referred_user_id: number;
        fee_gbp: string;
        commission_percent: string;
        amount: string;
        skipped: 'policy' | 'zero' | 'closed' | null;
        journal_id: string | null;
      },
    ) {
      return executor
        .insertInto('referral_commissions')
        .values(values)
        .onConflict((oc) => oc.column('trade_id').doNothing())
        .returning('id')
        .executeTakeFirst();
    },

    listCommissions(referrerId: number) {
      return db
        .selectFrom('referral_commissions')
        .select(['id', 'trade_id', 'amount', 'created_at'])
        .where('referrer_user_id', '=', referrerId)
        .where('journal_id', 'is not', null)
        .orderBy('seq', 'desc')
        .limit(100)
        .execute();
    },

    async totals(userId: number) {
      const earned = await db
        .selectFrom('referral_commissions')
        .select(sql<string>`coalesce(sum(amount), 0)`.as('sum'))
        .where('referrer_user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const claims = await db
        .selectFrom('affiliate_claims')
        .select(['status', sql<string>`coalesce(sum(amount), 0)`.as('sum')])
        .where('user_id', '=', userId)
        .groupBy('status')
        .execute();
      const of = (status: string) => BigInt(claims.find((row) => row.status === status)?.sum ?? '0');
      return { earned: BigInt(earned.sum), paid: of('paid'), waiting: of('waiting') };
    },

    ...createReferralClaimRepository(db),
  };
}

export type ReferralRepository = ReturnType<typeof createReferralRepository>;
