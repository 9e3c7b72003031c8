import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Which statements are prepared (decision 138). A statement is named by a hash of its text, so one name
 * always has one text (pg refuses a name reused for another text) and every call site sharing a query
 * shares its plan without knowing. Only a text of fixed shape is worth a name: a variable-arity `IN`
 * list or a multi-row insert has one text per count of values, each prepared once and rarely run again,
 * so the bounds on parameters and length keep those (and generated reports) unnamed, and the cap per
 * connection bounds the server memory the rest may hold.
 */
export const PREPARED_STATEMENT_LIMITS = {
  /** The widest hot statement (an order's or a trade's insert) has about 30. */
  maxParameters: 40,
  maxTextLength: 6_000,
  /** Past this many names a connection sends new texts unnamed (the hot ones come first and stay). */
  maxPerConnection: 300,
};

/**
 * A statement without parameters is not named: it is either a command with nothing to plan (BEGIN,
 * COMMIT, SET, LISTEN), a script of several statements (migrations, which the extended protocol
 * refuses), or a text with its values written in, which would take a name per value.
 */
export function preparedStatementName(text: string, parameterCount: number): string | null {
  if (parameterCount === 0 || parameterCount > PREPARED_STATEMENT_LIMITS.maxParameters) return null;
  if (text.length > PREPARED_STATEMENT_LIMITS.maxTextLength) return null;
  let name = namesByText.get(text);
  if (name === undefined) {
    // Never more texts than the bounded set the code writes; cleared if it ever grows past that.
    if (namesByText.size >= 2_000) namesByText.clear();
    name = `florin_${createHash('sha1').update(text).digest('base64url')}`;
    namesByText.set(text, name);
  }
  return name;
}

const namesByText = new Map<string, string>();

/**
 * A statement prepared before a migration changed a table it reads with `*` fails with this once the
 * result's columns differ; the connection is then closed on release, taking its statements with it.
 */
function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === '0A000' &&
    error.message.includes('cached plan must not change result type')
  );
}

type PreparingClient = PostgresPoolClient & { processID?: number };

/** What Kysely is given for one pg connection: its statements go out named when they qualify. */
function preparingClient(client: pg.PoolClient): PreparingClient {
  const named = new Set<string>();
  let stale = false;
  // pg prepares a name once per connection (the server keeps it until the connection closes, whatever
  // the transaction does) and forgets a name whose Parse failed, as in an aborted transaction; a new
  // connection starts with none, so a lost connection needs nothing here.
  async function run<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const values = [...parameters];
    let name = preparedStatementName(text, values.length);
    if (name !== null && !named.has(name)) {
      if (named.size < PREPARED_STATEMENT_LIMITS.maxPerConnection) named.add(name);
      else name = null;
    }
    try {
      const result = await (name === null
        ? client.query(text, values)
        : client.query({ name, text, values }));
      return result as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if (isStalePlan(error)) stale = true;
      throw error;
    }
  }
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    input: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof input === 'string') return run<R>(input, parameters ?? []);
    return client.query(input as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
  }
  return {
    query,
    release: (destroy?: boolean) => client.release(destroy === true || stale),
    get processID() {
      return (client as pg.PoolClient & { processID?: number }).processID;
    },
  };
}

/**
 * The pool as Kysely sees it: the same pg pool, its connections wrapped once each (Kysely keys its own
 * per-connection state by the object it is handed, so the wrapper must be the same every time).
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    options: pool.options,
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = preparingClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** Opens the pool's `min` connections now, so the first requests do not each wait for a connection. */
export async function warmPool(pool: pg.Pool, connections: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
  for (const client of clients) client.release();
}
