/*
 * What the sanctions repositories (list-repository.ts, screening-repository.ts, ...) share.
 */

/** Rows a multi-row INSERT carries: well under PostgreSQL's 65,535 parameters at 15 columns. */
export const INSERT_CHUNK = 1_000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
