import { sql, type Kysely } from 'kysely';
import type {
  DB,
  SanctionsScreeningMatch,
  SanctionsScreeningSubject,
  SanctionsScreeningsTable,
} from '../../db/schema.js';
import { chunks, INSERT_CHUNK } from './shared.js';

export type ScreeningRow = {
  id: string;
  user_id: number;
  list_id: number;
  list_updated_on: string;
  list_sha256: string;
  trigger: SanctionsScreeningsTable['trigger'];
  outcome: SanctionsScreeningsTable['outcome'];
  subjects: SanctionsScreeningSubject[];
  matches: SanctionsScreeningMatch[];
  screened_at: Date;
};

export type NewScreening = {
  user_id: number;
  list_id: number;
  trigger: SanctionsScreeningsTable['trigger'];
  outcome: SanctionsScreeningsTable['outcome'];
  subjects: SanctionsScreeningSubject[];
};

/** Each screening of a customer, kept with what was screened and what it matched. */
export function createSanctionsScreeningRepository(db: Kysely<DB>) {
  return {
    async insertScreening(trx: Kysely<DB>, screening: NewScreening): Promise<string> {
      const row = await trx
        .insertInto('sanctions_screenings')
        .values({ ...screening, subjects: JSON.stringify(screening.subjects) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Clear screenings of many customers at once (a new list screens everyone). */
    async insertScreenings(trx: Kysely<DB>, screenings: readonly NewScreening[]): Promise<void> {
      for (const chunk of chunks(screenings, INSERT_CHUNK)) {
        await trx
          .insertInto('sanctions_screenings')
          .values(chunk.map((screening) => ({ ...screening, subjects: JSON.stringify(screening.subjects) })))
          .execute();
      }
    },

    async setScreeningMatches(
      trx: Kysely<DB>,
      screeningId: string,
      matches: readonly SanctionsScreeningMatch[],
    ): Promise<void> {
      await trx
        .updateTable('sanctions_screenings')
        .set({ matches: JSON.stringify(matches) })
        .where('id', '=', screeningId)
        .execute();
    },

    /** Whether the customer has been screened at or after `since`. */
    async hasScreeningSince(userId: number, since: Date): Promise<boolean> {
      const row = await db
        .selectFrom('sanctions_screenings')
        .select('id')
        .where('user_id', '=', userId)
        .where('screened_at', '>=', since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Newest first. */
    listScreenings(userId: number): Promise<ScreeningRow[]> {
      return db
        .selectFrom('sanctions_screenings')
        .innerJoin('sanctions_lists', 'sanctions_lists.id', 'sanctions_screenings.list_id')
        .select([
          'sanctions_screenings.id',
          'sanctions_screenings.user_id',
          'sanctions_screenings.list_id',
          sql<string>`to_char(sanctions_lists.list_updated_on, 'YYYY-MM-DD')`.as('list_updated_on'),
          'sanctions_lists.sha256 as list_sha256',
          'sanctions_screenings.trigger',
          'sanctions_screenings.outcome',
          'sanctions_screenings.subjects',
          'sanctions_screenings.matches',
          'sanctions_screenings.screened_at',
        ])
        .where('sanctions_screenings.user_id', '=', userId)
        .orderBy('sanctions_screenings.id', 'desc')
        .execute();
    },
  };
}
