import { describe, expect, it } from 'vitest';
import { tabFromQuery } from './settings-tabs';

describe('tabFromQuery', () => {
  it('opens the tab the address names', () => {
    expect(tabFromQuery('password')).toBe('password');
    expect(tabFromQuery('2fa')).toBe('2fa');
  });

  it('opens 2FA for a whitelisting tab that is not built yet (/walletWhitelist lands there)', () => {
    expect(tabFromQuery('wallet')).toBe('2fa');
    expect(tabFromQuery('ip')).toBe('2fa');
  });

  it('opens Password when no tab or an unknown one is named', () => {
    expect(tabFromQuery(null)).toBe('password');
    expect(tabFromQuery('nope')).toBe('password');
  });
});
