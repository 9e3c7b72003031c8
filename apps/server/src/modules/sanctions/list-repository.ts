import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, SanctionsListsTable } from '../../db/schema.js';
import type { ConListEntry } from './con-list.js';
import type { IndexEntry } from './matching.js';
import { chunks, INSERT_CHUNK } from './shared.js';

/** An import as the back office lists it: who imported it by e-mail, not by id. */
export type ListRow = Omit<Selectable<SanctionsListsTable>, 'imported_by_staff_id' | 'replaced_at'> & {
  imported_by: string | null;
};

/** The imported lists, their entries and the index screening builds from the active one. */
export function createSanctionsListRepository(db: Kysely<DB>) {
  const selectList = (executor: Kysely<DB>) =>
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

  return {
    findActiveList(executor: Kysely<DB> = db): Promise<ListRow | undefined> {
      return selectList(executor).where('sanctions_lists.replaced_at', 'is', null).executeTakeFirst();
    },

    findList(id: number, executor: Kysely<DB> = db): Promise<ListRow | undefined> {
      return selectList(executor).where('sanctions_lists.id', '=', id).executeTakeFirst();
    },

    /** Imports one at a time: a second waits here until the first has committed. */
    async lockLists(trx: Kysely<DB>): Promise<void> {
      await sql`LOCK TABLE sanctions_lists IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    },

    /** Ends the active list (its rows go; the screenings that used it keep its metadata). */
    async replaceActiveList(trx: Kysely<DB>): Promise<number | null> {
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
      trx: Kysely<DB>,
      values: Omit<Insertable<SanctionsListsTable>, 'id' | 'imported_at' | 'replaced_at'>,
    ): Promise<number> {
      const row = await trx
        .insertInto('sanctions_lists')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async insertEntries(trx: Kysely<DB>, listId: number, entries: readonly ConListEntry[]): Promise<void> {
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

    /** Of these designations, the ones the active list names. */
    async namedByActiveList(trx: Kysely<DB>, groupIds: readonly string[]): Promise<Set<string>> {
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
  };
}
