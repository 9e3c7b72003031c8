import { describe, expect, it } from 'vitest';
import { createCacheSignalHub, createCachedRead, createKeyedCache } from './cached-read.js';

/** A load the test answers when it likes: a read still in flight when a change commits. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('a cached read', () => {
  it('keeps a value for its bound and reads again after it', async () => {
    const hub = createCacheSignalHub();
    hub.setLive(true);
    let clock = 0;
    let reads = 0;
    const coins = createCachedRead({
      topic: 'coins',
      maxAgeMs: 30_000,
      signals: hub.signals,
      now: () => clock,
      load: () => Promise.resolve(++reads),
    });
    expect(await coins.get()).toBe(1);
    clock = 29_999;
    expect(await coins.get()).toBe(1);
    clock = 30_000;
    expect(await coins.get()).toBe(2);
  });

  it('drops the value on its topic at once, and only on its topic', async () => {
    const hub = createCacheSignalHub();
    hub.setLive(true);
    let reads = 0;
    const coins = createCachedRead({
      topic: 'coins',
      maxAgeMs: 30_000,
      signals: hub.signals,
      now: () => 0,
      load: () => Promise.resolve(++reads),
    });
    expect(await coins.get()).toBe(1);
    hub.emit('currencies');
    expect(await coins.get()).toBe(1);
    hub.emit('coins');
    expect(await coins.get()).toBe(2);
  });

  it('keeps nothing while it cannot hear changes, and drops all when it starts or stops hearing', async () => {
    const hub = createCacheSignalHub();
    let reads = 0;
    const coins = createCachedRead({
      topic: 'coins',
      maxAgeMs: 30_000,
      signals: hub.signals,
      now: () => 0,
      load: () => Promise.resolve(++reads),
    });
    expect(await coins.get()).toBe(1);
    expect(await coins.get()).toBe(2);
    hub.setLive(true);
    expect(await coins.get()).toBe(3);
    expect(await coins.get()).toBe(3);
    hub.setLive(false);
    expect(await coins.get()).toBe(4);
  });

  it('does not keep a read that was in flight when a change was heard', async () => {
    const hub = createCacheSignalHub();
    hub.setLive(true);
    const sessions = createKeyedCache<string, { userId: number; revoked: boolean }>({
      maxAgeMs: 5_000,
      signals: hub.signals,
      now: () => 0,
      dropsOn: (topic, _key, row) => topic === `session:${row.userId}`,
    });
    const before = deferred<{ userId: number; revoked: boolean }>();
    const reading = sessions.get('token', () => before.promise);
    hub.emit('session:7');
    before.resolve({ userId: 7, revoked: false });
    expect(await reading).toEqual({ userId: 7, revoked: false });
    expect(await sessions.get('token', () => Promise.resolve({ userId: 7, revoked: true }))).toEqual({
      userId: 7,
      revoked: true,
    });
  });

  it("drops one customer's sessions on their topic and keeps the others'", async () => {
    const hub = createCacheSignalHub();
    hub.setLive(true);
    const sessions = createKeyedCache<string, { userId: number; read: number }>({
      maxAgeMs: 5_000,
      signals: hub.signals,
      now: () => 0,
      dropsOn: (topic, _key, row) => topic === `session:${row.userId}`,
    });
    let reads = 0;
    const read = (userId: number) => () => Promise.resolve({ userId, read: ++reads });
    await sessions.get('a', read(1));
    await sessions.get('b', read(2));
    hub.emit('session:1');
    expect((await sessions.get('a', read(1))).read).toBe(3);
    expect((await sessions.get('b', read(2))).read).toBe(2);
  });
});
