import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Marks a test customer's first-investment journey complete, as if they had
 * walked it: the API tests of buying, term deposits and auto trades are about
 * those features, and investor.test.ts walks the journey itself.
 */
export async function completeInvestorJourney(db: Kysely<DB>, userId: number): Promise<void> {
  const now = new Date();
  await db
    .insertInto('investor_profiles')
    .values({
      user_id: userId,
      category: 'restricted',
      categorised_at: now,
      assessment_passed_at: now,
      cooling_off_ends_at: now,
      completed_at: now,
    })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
}
