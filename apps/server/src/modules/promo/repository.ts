import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const CODE_COLUMNS = [
  'promo_codes.id',
  'promo_codes.code',
  'promo_codes.discount_percent',
  'promo_codes.duration_days',
  sql<string | null>`to_char(promo_codes.valid_until, 'YYYY-MM-DD')`.as('valid_until'),
  'promo_codes.is_active',
  'promo_codes.created_at',
] as const;

/** The only place the promo module builds queries. */
export function createPromoRepository(db: Kysely<DB>) {
  return {
    /** A code customers can apply today: active and not past its last day. */
    findApplicableCode(code: string, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('promo_codes')
        .select(['id', 'code', 'discount_percent', 'duration_days'])
        .where('code', '=', code)
        .where('is_active', '=', true)
        .where((eb) =>
          eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', sql<string>`current_date`)]),
        )
        .executeTakeFirst();
    },

    /** undefined when the customer applied this code before. */
    insertRedemption(
      executor: Kysely<DB>,
      values: { user_id: number; promo_code_id: string; discount_percent: string; duration_days: number },
    ) {
      return executor
        .insertInto('promo_redemptions')
        .values({
          user_id: values.user_id,
          promo_code_id: values.promo_code_id,
          discount_percent: values.discount_percent,
          ends_at: sql<Date>`now() + make_interval(days => ${values.duration_days})`,
        })
        .onConflict((oc) => oc.columns(['user_id', 'promo_code_id']).doNothing())
        .returning(['id'])
        .executeTakeFirst();
    },

    listRedemptions(userId: number, executor: Kysely<DB> = db) {
      return executor
        .selectFrom('promo_redemptions as r')
        .innerJoin('promo_codes as c', 'c.id', 'r.promo_code_id')
        .select(['r.id', 'c.code', 'r.discount_percent', 'r.applied_at', 'r.ends_at'])
        .where('r.user_id', '=', userId)
        .orderBy('r.seq', 'desc')
        .execute();
    },

    /** The discounts running for the customer now. */
    listRunningDiscounts(userId: number) {
      return db
        .selectFrom('promo_redemptions')
        .select('discount_percent')
        .where('user_id', '=', userId)
        .where('ends_at', '>', sql<Date>`now()`)
        .execute();
    },

    listCodes(executor: Kysely<DB> = db) {
      return executor
        .selectFrom('promo_codes')
        .select(CODE_COLUMNS)
        .select((eb) =>
          eb
            .selectFrom('promo_redemptions')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('promo_redemptions.promo_code_id', '=', 'promo_codes.id')
            .as('times_applied'),
        )
        .orderBy('promo_codes.id', 'desc')
        .execute();
    },

    async findCode(id: string, executor: Kysely<DB> = db) {
      return (await this.listCodes(executor)).find((row) => row.id === id);
    },

    insertCode(
      executor: Kysely<DB>,
      values: {
        code: string;
        discount_percent: string;
        duration_days: number;
        valid_until: string | null;
        created_by: number | null;
      },
    ) {
      return executor
        .insertInto('promo_codes')
        .values(values)
        .onConflict((oc) => oc.column('code').doNothing())
        .returning('id')
        .executeTakeFirst();
    },

    async setActive(executor: Kysely<DB>, id: string, isActive: boolean) {
      const result = await executor
        .updateTable('promo_codes')
        .set({ is_active: isActive })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type PromoRepository = ReturnType<typeof createPromoRepository>;
