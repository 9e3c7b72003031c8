import { describe, expect, it } from 'vitest';
import { moneyActions } from './current-user';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const live = { status: 1, block_status: 0, terminated_at: null };

describe('moneyActions: which of the dashboard’s money buttons a customer may use', () => {
  it('all of them for a live customer, also while a notice of termination runs', () => {
    expect(moneyActions(live, NOW)).toBe('all');
    expect(moneyActions({ ...live, terminated_at: '2026-12-29T12:00:00Z' }, NOW)).toBe('all');
  });

  it('only withdrawing once the notice has run (a terminated customer may only withdraw)', () => {
    expect(moneyActions({ ...live, terminated_at: '2026-11-29T12:00:00Z' }, NOW)).toBe('withdraw');
    expect(moneyActions({ ...live, terminated_at: '2026-10-01T09:00:00Z' }, NOW)).toBe('withdraw');
  });

  it('none before the account is live, or while it is on hold, terminated or not', () => {
    expect(moneyActions({ ...live, status: 0 }, NOW)).toBe('none');
    expect(moneyActions({ ...live, block_status: 2 }, NOW)).toBe('none');
    expect(moneyActions({ ...live, block_status: 2, terminated_at: '2026-10-01T09:00:00Z' }, NOW)).toBe(
      'none',
    );
  });
});
