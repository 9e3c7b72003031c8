import { randomInt } from 'node:crypto';

/** A random object id as migration 0026's random_object_id() draws one: 31 bits, never 0 (issue 15). */
export function drawObjectId(): string {
  return String(randomInt(1, 2 ** 31));
}

/** An id for each of `count` rows, no two alike. */
function drawDistinct(count: number): string[] {
  const ids = new Set<string>();
  while (ids.size < count) ids.add(drawObjectId());
  return [...ids];
}

/**
 * Writes a set of rows in one statement with ids drawn here rather than by migration 0026's trigger,
 * which ran once a row (decision 136). `insert` writes the rows it is given with `ON CONFLICT (id) DO
 * NOTHING` and returns the ids it wrote; a row whose id an older row has is drawn again and written
 * by one more statement, so every row is written. The ids, in the order of `rows`.
 */
export async function insertWithDrawnIds<R>(
  rows: readonly R[],
  insert: (drawn: readonly { id: string; row: R }[]) => Promise<readonly string[]>,
): Promise<string[]> {
  const ids = drawDistinct(rows.length);
  let pending = rows.map((row, index) => ({ id: ids[index] ?? '', row, index }));
  while (pending.length > 0) {
    const written = new Set(await insert(pending));
    const taken = pending.filter(({ id }) => !written.has(id));
    // Almost always none: a pass of thousands of rows then draws nothing more.
    if (taken.length === 0) break;
    const drawn = new Set(ids);
    const redrawn = drawDistinct(taken.length + drawn.size).filter((id) => !drawn.has(id));
    pending = taken.map((entry, k) => ({ ...entry, id: redrawn[k] ?? '' }));
    for (const { id, index } of pending) ids[index] = id;
  }
  return ids;
}
