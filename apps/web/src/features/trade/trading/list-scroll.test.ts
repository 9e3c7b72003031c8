import { describe, expect, it } from 'vitest';
import { isNearEnd } from './list-scroll';

describe('isNearEnd', () => {
  it('is true from 100 px before the end of the list, not before', () => {
    const box = { scrollHeight: 1_000, clientHeight: 400 };
    expect(isNearEnd({ ...box, scrollTop: 0 })).toBe(false);
    expect(isNearEnd({ ...box, scrollTop: 499 })).toBe(false);
    expect(isNearEnd({ ...box, scrollTop: 500 })).toBe(true);
    expect(isNearEnd({ ...box, scrollTop: 600 })).toBe(true);
  });
});
