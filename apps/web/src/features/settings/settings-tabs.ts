import { SETTINGS_TABS, type SettingsTab } from '../../lib/paths';

export type SettingsTabEntry = { value: SettingsTab; label: string; isAvailable: boolean };

/** Spec 001 section 2, in this order. */
export const SETTINGS_TAB_ENTRIES: readonly SettingsTabEntry[] = [
  { value: SETTINGS_TABS.password, label: 'Password', isAvailable: true },
  { value: SETTINGS_TABS.twoFactor, label: 'Two-Factor Authentication', isAvailable: true },
  { value: SETTINGS_TABS.ipWhitelist, label: 'IP Whitelisting', isAvailable: true },
  { value: SETTINGS_TABS.walletWhitelist, label: 'Wallet Whitelisting', isAvailable: true },
];

export function settingsTabEntry(value: string | null): SettingsTabEntry | undefined {
  return SETTINGS_TAB_ENTRIES.find((entry) => entry.value === value);
}

/**
 * The tab an address asks for (`?tab=`): `/walletWhitelist` lands on `wallet`.
 * A tab not available opens 2FA instead; anything else opens Password.
 */
export function tabFromQuery(value: string | null): SettingsTab {
  const entry = settingsTabEntry(value);
  if (!entry) return SETTINGS_TABS.password;
  return entry.isAvailable ? entry.value : SETTINGS_TABS.twoFactor;
}
