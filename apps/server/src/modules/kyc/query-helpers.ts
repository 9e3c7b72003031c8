import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What the KYC repositories run a query on: the pool or the caller's transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** DATE columns read as YYYY-MM-DD on both engines (pg gives a Date, PGlite a string). */
export const isoDate = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;
