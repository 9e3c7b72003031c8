import { describe, expect, it } from 'vitest';
import { hasSeenMotd, markMotdSeen, MOTD_SEEN_KEY, remainingPercent } from './motd';

function memoryStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe('the messages of the day shown in this session', () => {
  it('remembers each message by id', () => {
    const store = memoryStore();
    expect(hasSeenMotd(store, '7')).toBe(false);
    markMotdSeen(store, '7');
    expect(hasSeenMotd(store, '7')).toBe(true);
    expect(hasSeenMotd(store, '8')).toBe(false);
  });

  it('keeps only the last 20 and no duplicates', () => {
    const store = memoryStore();
    for (let id = 1; id <= 25; id += 1) markMotdSeen(store, String(id));
    markMotdSeen(store, '25');
    const seen = JSON.parse(store.values.get(MOTD_SEEN_KEY) ?? '[]') as string[];
    expect(seen).toHaveLength(20);
    expect(seen.at(-1)).toBe('25');
    expect(hasSeenMotd(store, '5')).toBe(false);
  });

  it('treats an unreadable store as nothing seen', () => {
    expect(hasSeenMotd(memoryStore({ [MOTD_SEEN_KEY]: '{not json' }), '1')).toBe(false);
    expect(hasSeenMotd(memoryStore({ [MOTD_SEEN_KEY]: '{"a":1}' }), '1')).toBe(false);
  });

  it('survives a store that refuses writes', () => {
    const store = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => markMotdSeen(store, '1')).not.toThrow();
  });
});

describe('remainingPercent', () => {
  it('is the share of the 60 seconds left, within 0 to 100', () => {
    expect(remainingPercent(60_000)).toBe(100);
    expect(remainingPercent(15_000)).toBe(25);
    expect(remainingPercent(0)).toBe(0);
    expect(remainingPercent(-5)).toBe(0);
  });
});
