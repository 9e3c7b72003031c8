import { describe, expect, it } from 'vitest';
import { SETTINGS_TAB_ENTRIES, tabFromQuery } from './settings-tabs';

describe('tabFromQuery', () => {
  it('opens the tab the address names', () => {
    expect(tabFromQuery('password')).toBe('password');
    expect(tabFromQuery('2fa')).toBe('2fa');
  });

  it('opens the whitelisting tabs (/walletWhitelist lands on wallet)', () => {
    expect(tabFromQuery('wallet')).toBe('wallet');
    expect(tabFromQuery('ip')).toBe('ip');
  });

  it('opens Password when no tab or an unknown one is named', () => {
    expect(tabFromQuery(null)).toBe('password');
    expect(tabFromQuery('nope')).toBe('password');
  });
});

describe('SETTINGS_TAB_ENTRIES', () => {
  it('lists the four tabs of spec 001 section 2 in its order, all available', () => {
    expect(SETTINGS_TAB_ENTRIES.map((entry) => entry.label)).toEqual([
      'Password',
      'Two-Factor Authentication',
      'IP Whitelisting',
      'Wallet Whitelisting',
    ]);
    expect(SETTINGS_TAB_ENTRIES.every((entry) => entry.isAvailable)).toBe(true);
  });
});
