import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { SanctionsHitStatus } from '@florin/contracts';
import type {
  DB,
  SanctionsHitsTable,
  SanctionsListsTable,
  SanctionsScreeningMatch,
  SanctionsScreeningSubject,
  SanctionsScreeningsTable,
} from '../../db/schema.js';
import type { ConListEntry } from './con-list.js';
import type { IndexEntry } from './matching.js';

type Executor = Kysely<DB>;

/** An import as the back office lists it: who imported it by e-mail, not by id. */
export type ListRow = Omit<Selectable<SanctionsListsTable>, 'imported_by_staff_id' | 'replaced_at'> & {
  imported_by: string | null;
};

/** A person or company screened, with where it comes from (a director's row, or the customer). */
export type SubjectRow = SanctionsScreeningSubject & { userId: number; directorId: number | null };

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

/** Rows a multi-row INSERT carries: well under PostgreSQL's 65,535 parameters at 15 columns. */
const INSERT_CHUNK = 1_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** The only place the sanctions module builds queries. */
export function createSanctionsRepository(db: Kysely<DB>) {
  const selectList = (executor: Executor) =>
    executor
      .selectFrom('sanctions_lists')
      .leftJoin('staff', 'staff.id', 'sanctions_lists.imported_by_staff_id')
      .select([
        'sanctions_lists.id',
        'sanctions_lists.file_name',
        'sanctions_lists.sha256',
        'sanctions_lists.size_bytes',
        sql<string>`to_char(sanctions_lists.list_updated_on, 'YYYY-MM-DD')`.as('list_updated_on'),
        'sanctions_lists.row_count',
        'sanctions_lists.designation_count',
        'sanctions_lists.individual_count',
        'sanctions_lists.entity_count',
        'sanctions_lists.ship_count',
        'sanctions_lists.imported_at',
        'staff.email as imported_by',
      ]);

  const selectHit = (executor: Executor) =>
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

  /** Customers (with their own date of birth), companies and directors; `userId` narrows to one customer. */
  async function listSubjects(userId?: number): Promise<SubjectRow[]> {
    let customers = db
      .selectFrom('users')
      .select([
        'id',
        'first_name',
        'last_name',
        sql<string | null>`to_char(birthdate, 'YYYY-MM-DD')`.as('birthdate'),
      ]);
    let companies = db
      .selectFrom('companies')
      .innerJoin('users', 'users.id', 'companies.user_id')
      .select(['companies.user_id', 'companies.name'])
      .where('users.account_type', '=', 'Corporate');
    let directors = db
      .selectFrom('company_directors')
      .innerJoin('companies', 'companies.id', 'company_directors.company_id')
      .innerJoin('users', 'users.id', 'companies.user_id')
      .select([
        'companies.user_id',
        'company_directors.id',
        'company_directors.first_name',
        'company_directors.last_name',
        sql<string>`to_char(company_directors.birthdate, 'YYYY-MM-DD')`.as('birthdate'),
      ])
      .where('users.account_type', '=', 'Corporate')
      .where('company_directors.deleted_at', 'is', null);
    if (userId !== undefined) {
      customers = customers.where('id', '=', userId);
      companies = companies.where('companies.user_id', '=', userId);
      directors = directors.where('companies.user_id', '=', userId);
    }
    const [people, firms, officers] = await Promise.all([
      customers.orderBy('seq').execute(),
      companies.execute(),
      directors.orderBy('company_directors.seq').execute(),
    ]);
    return [
      ...people.map((row) => ({
        userId: row.id,
        directorId: null,
        kind: 'customer' as const,
        name: `${row.first_name} ${row.last_name}`,
        birthdate: row.birthdate,
      })),
      ...firms.map((row) => ({
        userId: row.user_id,
        directorId: null,
        kind: 'company' as const,
        name: row.name,
        birthdate: null,
      })),
      ...officers.map((row) => ({
        userId: row.user_id,
        directorId: row.id,
        kind: 'director' as const,
        name: `${row.first_name} ${row.last_name}`,
        birthdate: row.birthdate,
      })),
    ];
  }

  return {
    findActiveList(executor: Executor = db): Promise<ListRow | undefined> {
      return selectList(executor).where('sanctions_lists.replaced_at', 'is', null).executeTakeFirst();
    },

    findList(id: number, executor: Executor = db): Promise<ListRow | undefined> {
      return selectList(executor).where('sanctions_lists.id', '=', id).executeTakeFirst();
    },

    /** Imports one at a time: a second waits here until the first has committed. */
    async lockLists(trx: Executor): Promise<void> {
      await sql`LOCK TABLE sanctions_lists IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    },

    /** Ends the active list (its rows go; the screenings that used it keep its metadata). */
    async replaceActiveList(trx: Executor): Promise<number | null> {
      const replaced = await trx
        .updateTable('sanctions_lists')
        .set({ replaced_at: new Date() })
        .where('replaced_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!replaced) return null;
      await trx.deleteFrom('sanctions_list_entries').where('list_id', '=', replaced.id).execute();
      return replaced.id;
    },

    async insertList(
      trx: Executor,
      values: Omit<Insertable<SanctionsListsTable>, 'id' | 'imported_at' | 'replaced_at'>,
    ): Promise<number> {
      const row = await trx
        .insertInto('sanctions_lists')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async insertEntries(trx: Executor, listId: number, entries: readonly ConListEntry[]): Promise<void> {
      for (const chunk of chunks(entries, INSERT_CHUNK)) {
        await trx
          .insertInto('sanctions_list_entries')
          .values(
            chunk.map((entry) => ({
              list_id: listId,
              line: entry.line,
              group_id: entry.groupId,
              group_type: entry.groupType,
              surname: entry.surname,
              given_names: entry.givenNames,
              title: entry.title,
              dob: entry.dob,
              town_of_birth: entry.townOfBirth,
              country_of_birth: entry.countryOfBirth,
              nationality: entry.nationality,
              alias_type: entry.aliasType,
              regime: entry.regime,
              listed_on: entry.listedOn,
            })),
          )
          .execute();
      }
    },

    async listIndexEntries(listId: number): Promise<IndexEntry[]> {
      const rows = await db
        .selectFrom('sanctions_list_entries')
        .select(['group_id', 'group_type', 'surname', 'given_names', 'dob', 'regime'])
        .where('list_id', '=', listId)
        .where('group_type', 'in', ['Individual', 'Entity'])
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        groupId: row.group_id,
        groupType: row.group_type,
        surname: row.surname,
        givenNames: row.given_names,
        dob: row.dob,
        regime: row.regime,
      }));
    },

    listSubjects,

    async insertScreening(trx: Executor, screening: NewScreening): Promise<string> {
      const row = await trx
        .insertInto('sanctions_screenings')
        .values({ ...screening, subjects: JSON.stringify(screening.subjects) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Clear screenings of many customers at once (a new list screens everyone). */
    async insertScreenings(trx: Executor, screenings: readonly NewScreening[]): Promise<void> {
      for (const chunk of chunks(screenings, INSERT_CHUNK)) {
        await trx
          .insertInto('sanctions_screenings')
          .values(chunk.map((screening) => ({ ...screening, subjects: JSON.stringify(screening.subjects) })))
          .execute();
      }
    },

    async setScreeningMatches(
      trx: Executor,
      screeningId: string,
      matches: readonly SanctionsScreeningMatch[],
    ): Promise<void> {
      await trx
        .updateTable('sanctions_screenings')
        .set({ matches: JSON.stringify(matches) })
        .where('id', '=', screeningId)
        .execute();
    },

    /** The statuses of the customer's hits with these keys (a match marked a false positive stays so). */
    async findHitStatuses(
      trx: Executor,
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
    upsertHit(trx: Executor, hit: NewHit): Promise<{ id: number; status: SanctionsHitStatus }> {
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

    /**
     * Which of the customer's matches keeps their account on hold: a confirmed one before one that still
     * waits for compliance's review; null when every match was marked a false positive (or there is none).
     */
    async findHoldingHit(userId: number, executor: Executor = db): Promise<'open' | 'confirmed' | null> {
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

    findHit(id: number, executor: Executor = db): Promise<HitRow | undefined> {
      return selectHit(executor).where('sanctions_hits.id', '=', id).executeTakeFirst();
    },

    async lockHit(
      trx: Executor,
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
      trx: Executor,
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
    async delist(trx: Executor, id: number, note: string, staffId: number | null): Promise<void> {
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
    async relistHit(trx: Executor, id: number): Promise<boolean> {
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

    /** Of these designations, the ones the active list names. */
    async namedByActiveList(trx: Executor, groupIds: readonly string[]): Promise<Set<string>> {
      if (groupIds.length === 0) return new Set();
      const rows = await trx
        .selectFrom('sanctions_list_entries')
        .innerJoin('sanctions_lists', 'sanctions_lists.id', 'sanctions_list_entries.list_id')
        .select('sanctions_list_entries.group_id')
        .distinct()
        .where('sanctions_lists.replaced_at', 'is', null)
        .where('sanctions_list_entries.group_id', 'in', groupIds)
        .execute();
      return new Set(rows.map((row) => row.group_id));
    },

    /** Locks the customer's row (after the hit's: the order every sanctions decision takes them in). */
    async lockCustomer(trx: Executor, userId: number): Promise<{ block_status: number } | undefined> {
      return trx
        .selectFrom('users')
        .select('block_status')
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
    },

    async customerExists(userId: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
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

export type SanctionsRepository = ReturnType<typeof createSanctionsRepository>;
