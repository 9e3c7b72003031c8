import { describe, expect, it } from 'vitest';
import { insertWithDrawnIds } from './drawn-ids.js';

/** A table that already holds some ids: an insert writes the rows whose id is free, as ON CONFLICT DO NOTHING. */
function tableHolding(taken: Set<string>) {
  const rows = new Map<string, string>();
  const calls: number[] = [];
  const insert = (drawn: readonly { id: string; row: string }[]) => {
    calls.push(drawn.length);
    const written = drawn.filter(({ id }) => !taken.has(id) && !rows.has(id));
    for (const { id, row } of written) rows.set(id, row);
    return Promise.resolve(written.map(({ id }) => id));
  };
  return { rows, calls, insert };
}

describe('rows written with ids drawn in the app (decision 136)', () => {
  it('writes every row in one statement when no id is taken, each its own id', async () => {
    const table = tableHolding(new Set());
    const names = Array.from({ length: 2_500 }, (_, index) => `row ${index}`);
    const ids = await insertWithDrawnIds(names, table.insert);
    expect(table.calls).toEqual([2_500]);
    expect(new Set(ids).size).toBe(2_500);
    expect(ids.map((id) => table.rows.get(id))).toEqual(names);
  });

  it('draws again for the rows whose id an older row has, and returns each row its final id in order', async () => {
    const taken = new Set<string>();
    let first = true;
    const table = tableHolding(taken);
    const names = ['a', 'b', 'c', 'd'];
    const ids = await insertWithDrawnIds(names, (drawn) => {
      // The first statement finds the ids of 'b' and 'd' taken by rows written before.
      if (first) {
        first = false;
        taken.add(drawn[1]!.id);
        taken.add(drawn[3]!.id);
      }
      return table.insert(drawn);
    });
    expect(table.calls).toEqual([4, 2]);
    expect(ids.map((id) => table.rows.get(id))).toEqual(names);
    expect(ids.some((id) => taken.has(id))).toBe(false);
  });
});
