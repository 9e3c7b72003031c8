import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** "begin", "insert trades", "select trade_quotes for update", … from a statement's text. */
function label(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
  const table = /\b(?:into|from|update)\s+"?(\w+)"?/i.exec(text)?.[1];
  const forUpdate = /\bfor update\b/i.test(text) ? ' for update' : '';
  return `${verb}${table ? ` ${table}` : ''}${forUpdate}`;
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Every statement the app sends passes pg's Client#query (PostgreSQL) or PGlite's query (the dialects call
 * them): while `work` runs, each is labelled and listed, as bench/trading/server.ts counts them.
 */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const owners = [pg.Client.prototype, Object.getPrototypeOf(PGlite.prototype) as object];
  const originals = owners.map((owner) => Reflect.get(owner, 'query') as Query);
  owners.forEach((owner, index) => {
    const original = originals[index] as Query;
    Reflect.set(owner, 'query', function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
      seen.push(typeof text === 'string' ? label(text) : '?');
      return original.apply(this, args);
    });
  });
  try {
    await work();
  } finally {
    owners.forEach((owner, index) => Reflect.set(owner, 'query', originals[index]));
  }
  return seen;
}
