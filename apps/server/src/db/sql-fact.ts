import type { AliasableExpression } from 'kysely';

/**
 * What one module knows how to read about a customer, for another module to read inside its own
 * statement (issue 43: a quote reads everything it decides on in one round trip). `select` is a
 * scalar subquery; `read` turns what the database returned into the module's value, so the rule
 * stays in the module that owns it.
 */
export type SqlFact<T> = {
  select: AliasableExpression<unknown>;
  read: (raw: unknown) => T;
};
