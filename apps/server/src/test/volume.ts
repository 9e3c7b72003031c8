/**
 * Volume knobs and seeds of the random tests. `npm test` runs enough random
 * cases to catch a regression; `npm run test:deep` sets the same variables to
 * the full volumes. A seed is drawn afresh each run unless its variable is set,
 * so a printed seed replays a failure.
 */

/** How many random cases a test runs: `variable` when set, else the `npm test` default. */
export function volumeOf(variable: string, fallback: number): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${variable} must be a whole number above 0, not ${raw}`);
  return value;
}

/** The seed of a random test: `variable` when set (to replay a failure), else a fresh one. */
export function seedOf(variable: string): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return Math.floor(Math.random() * 2 ** 31);
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${variable} must be a whole number, not ${raw}`);
  return value;
}
