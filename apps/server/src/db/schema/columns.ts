import type { ColumnType, Generated, Selectable } from 'kysely';

// Column types every table file shares.

/** NUMERIC(40,0) and int8 arrive as strings on both engines; code turns them into bigint. */
export type Numeric = ColumnType<string, string, string>;
export type Int8Id = Generated<string>;
export type CreatedAt = ColumnType<Date, never, never>;
/** The order rows were written in, where ids are random (migration 0026): order by it, never by id. */
export type WriteOrder = Generated<string>;
/** A table's row as the modules read it: the write order is for sorting in the database, never for code or the wire. */
export type RowOf<Table> = Omit<Selectable<Table>, 'seq'>;
