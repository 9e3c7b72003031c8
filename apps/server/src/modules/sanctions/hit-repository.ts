import { sql, type Insertable, type Kysely } from 'kysely';
import type { SanctionsHitStatus } from '@florin/contracts';
import type { DB, SanctionsHitsTable } from '../../db/schema.js';

export type HitRow = {
  id: number;
  user_id: number;
  user_identification: string;
  first_name: string;
  last_name: string;
  account_type: 'Individual' | 'Corporate' | null;
  block_status: number;
  subject_kind: 'customer' | 'company' | 'director';
  subject_name: string;
  subject_birthdate: string | null;
  group_id: string;
  group_type: 'Individual' | 'Entity';
  listed_name: string;
  listed_dobs: string | null;
  regime: string | null;
  status: SanctionsHitStatus;
  found_at: Date;
  last_found_at: Date;
  review_note: string | null;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  delisted_note: string | null;
  delisted_at: Date | null;
  delisted_by: string | null;
  /** Whether the active list still names the designation. */
  still_listed: boolean;
};

export type NewHit = Omit<
  Insertable<SanctionsHitsTable>,
  'status' | 'found_at' | 'last_found_at' | 'review_note' | 'reviewed_by_staff_id' | 'reviewed_at'
>;

/** Whether the active list names the hit's designation (its Group ID): `sanctions_hits` in scope. */
const ACTIVE_LIST_NAMES_HIT = sql<boolean>`exists (
  select 1 from sanctions_list_entries
  join sanctions_lists on sanctions_lists.id = sanctions_list_entries.list_id
  where sanctions_lists.replaced_at is null and sanctions_list_entries.group_id = sanctions_hits.group_id
)`;

/** The hits screenings found, and compliance's decisions on them. */
export function createSanctionsHitRepository(db: Kysely<DB>) {
  const selectHit = (executor: Kysely<DB>) =>
    executor
      .selectFrom('sanctions_hits')
      .innerJoin('users', 'users.id', 'sanctions_hits.user_id')
      .leftJoin('staff', 'staff.id', 'sanctions_hits.reviewed_by_staff_id')
      .leftJoin('staff as delister', 'delister.id', 'sanctions_hits.delisted_by_staff_id')
      .select([
        'sanctions_hits.id',
        'sanctions_hits.user_id',
        'users.user_identification',
        'users.first_name',
        'users.last_name',
        'users.account_type',
        'users.block_status',
        'sanctions_hits.subject_kind',
        'sanctions_hits.subject_name',
        'sanctions_hits.subject_birthdate',
        'sanctions_hits.group_id',
        'sanctions_hits.group_type',
        'sanctions_hits.listed_name',
        'sanctions_hits.listed_dobs',
        'sanctions_hits.regime',
        'sanctions_hits.status',
        'sanctions_hits.found_at',
        'sanctions_hits.last_found_at',
        'sanctions_hits.review_note',
        'sanctions_hits.reviewed_at',
        'staff.email as reviewed_by',
        'sanctions_hits.delisted_note',
        'sanctions_hits.delisted_at',
        'delister.email as delisted_by',
        ACTIVE_LIST_NAMES_HIT.as('still_listed'),
      ]);

  return {
    /** The statuses of the customer's hits with these keys (a match marked a false positive stays so). */
    async findHitStatuses(
      trx: Kysely<DB>,
      userId: number,
      keys: readonly string[],
    ): Promise<Map<string, SanctionsHitStatus>> {
      if (keys.length === 0) return new Map();
      const rows = await trx
        .selectFrom('sanctions_hits')
        .select(['match_key', 'status'])
        .where('user_id', '=', userId)
        .where('match_key', 'in', keys)
        .execute();
      return new Map(rows.map((row) => [row.match_key, row.status]));
    },

    /** A new hit, or the one found before for the same key seen again (its status untouched). */
    upsertHit(trx: Kysely<DB>, hit: NewHit): Promise<{ id: number; status: SanctionsHitStatus }> {
      return trx
        .insertInto('sanctions_hits')
        .values(hit)
        .onConflict((conflict) =>
          conflict.columns(['user_id', 'match_key']).doUpdateSet({
            last_screening_id: hit.last_screening_id,
            last_found_at: new Date(),
            listed_name: hit.listed_name,
            listed_dobs: hit.listed_dobs,
            regime: hit.regime,
          }),
        )
        .returning(['id', 'status'])
        .executeTakeFirstOrThrow();
    },

    async countHits(status: SanctionsHitStatus): Promise<number> {
      const row = await db
        .selectFrom('sanctions_hits')
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .where('status', '=', status)
        .executeTakeFirstOrThrow();
      return Number(row.rows); // a row count (PostgreSQL's bigint arrives as text), not money
    },

    /**
     * Which of the customer's matches keeps their account on hold: a confirmed one before one that still
     * waits for compliance's review; null when every match was marked a false positive (or there is none).
     */
    async findHoldingHit(userId: number, executor: Kysely<DB> = db): Promise<'open' | 'confirmed' | null> {
      const row = await executor
        .selectFrom('sanctions_hits')
        .select('status')
        .where('user_id', '=', userId)
        .where('status', 'in', ['open', 'confirmed'])
        .orderBy(sql`status = 'confirmed'`, 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.status === 'open' || row?.status === 'confirmed' ? row.status : null;
    },

    /** Newest first. */
    listHits(status: SanctionsHitStatus, limit: number, offset: number): Promise<HitRow[]> {
      return selectHit(db)
        .where('sanctions_hits.status', '=', status)
        .orderBy('sanctions_hits.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    findHit(id: number, executor: Kysely<DB> = db): Promise<HitRow | undefined> {
      return selectHit(executor).where('sanctions_hits.id', '=', id).executeTakeFirst();
    },

    async lockHit(
      trx: Kysely<DB>,
      id: number,
    ): Promise<{ status: SanctionsHitStatus; user_id: number } | undefined> {
      return trx
        .selectFrom('sanctions_hits')
        .select(['status', 'user_id'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Compliance's decision on an open hit, with its note. */
    async review(
      trx: Kysely<DB>,
      id: number,
      decision: Exclude<SanctionsHitStatus, 'open'>,
      note: string,
      staffId: number | null,
    ): Promise<void> {
      await trx
        .updateTable('sanctions_hits')
        .set({ status: decision, review_note: note, reviewed_by_staff_id: staffId, reviewed_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /** A confirmed match whose designation was revoked, with compliance's note. */
    async delist(trx: Kysely<DB>, id: number, note: string, staffId: number | null): Promise<void> {
      await trx
        .updateTable('sanctions_hits')
        .set({
          status: 'delisted',
          delisted_note: note,
          delisted_by_staff_id: staffId,
          delisted_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    /**
     * A delisted match found again while the active list names it (the party designated once more) is a
     * confirmed match again; true when this call made it one. A screening against a list replaced since
     * does not undo a delisting. Run after `upsertHit` in the same transaction, which has locked the row.
     */
    async relistHit(trx: Kysely<DB>, id: number): Promise<boolean> {
      const row = await trx
        .updateTable('sanctions_hits')
        .set({ status: 'confirmed', delisted_note: null, delisted_by_staff_id: null, delisted_at: null })
        .where('id', '=', id)
        .where('status', '=', 'delisted')
        .where(ACTIVE_LIST_NAMES_HIT)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
