import { describe, expect, it } from 'vitest';
import { fromLocalInput, motdStatus, toLocalInput } from './motd-times';

describe('datetime-local values', () => {
  it('round-trip through an instant in the browser time', () => {
    const local = toLocalInput(new Date(2026, 10, 23, 9, 5));
    expect(local).toBe('2026-11-23T09:05');
    expect(fromLocalInput(local)).toBe(new Date(2026, 10, 23, 9, 5).toISOString());
  });

  it('refuses anything that is not a datetime-local value', () => {
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('tomorrow')).toBeUndefined();
    expect(fromLocalInput('2026-13-45T99:99')).toBeUndefined();
  });
});

describe('motdStatus', () => {
  const motd = { starts_at: '2026-11-23T10:00:00.000Z', ends_at: '2026-11-23T12:00:00.000Z' };
  it('is Scheduled before the start, Showing from it, Ended from the end', () => {
    expect(motdStatus(motd, new Date('2026-11-23T09:59:59Z'))).toBe('Scheduled');
    expect(motdStatus(motd, new Date('2026-11-23T10:00:00Z'))).toBe('Showing');
    expect(motdStatus(motd, new Date('2026-11-23T11:59:59Z'))).toBe('Showing');
    expect(motdStatus(motd, new Date('2026-11-23T12:00:00Z'))).toBe('Ended');
  });
});
