import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEE_SCHEDULE } from '@florin/domain';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createFeeScheduleStore } from './schedule.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

describe('the fee schedule store', () => {
  it('reads the stored schedule and keeps it for 5 seconds', async () => {
    let clock = 0;
    const store = createFeeScheduleStore(db(), () => clock);
    expect(await store.current()).toEqual(DEFAULT_FEE_SCHEDULE);
    // Another instance saves a change: this one prices by its copy until the copy is 5 seconds old.
    await store.replace(db(), { ...DEFAULT_FEE_SCHEDULE, 1: { ...DEFAULT_FEE_SCHEDULE[1], 1: '1.25' } });
    clock = 4_999;
    expect((await store.current())[1][1]).toBe('1.39');
    clock = 5_000;
    expect((await store.current())[1][1]).toBe('1.25');
    await store.replace(db(), DEFAULT_FEE_SCHEDULE);
  });

  it('does not keep a reading that began before a change it was told of', async () => {
    const store = createFeeScheduleStore(db(), () => 0);
    const other = createFeeScheduleStore(db());
    // A quote's reading is still in flight when the saving instance, its change committed, forgets its copy.
    const reading = store.current();
    store.forget();
    await other.replace(db(), { ...DEFAULT_FEE_SCHEDULE, 2: { ...DEFAULT_FEE_SCHEDULE[2], 1: '0.70' } });
    await reading;
    // The reading from before the change is not what the next quote prices by.
    expect((await store.current())[2][1]).toBe('0.70');
    await store.replace(db(), DEFAULT_FEE_SCHEDULE);
  });
});
