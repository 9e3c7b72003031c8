import type { User } from '@florin/contracts';
import { Container, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ResponsiveTabs } from '../../components/responsive-tabs';
import { useCurrentUser } from '../../lib/current-user';
import { SETTINGS_TABS, type SettingsTab } from '../../lib/paths';
import { UpgradeNoticeModal } from './components/upgrade-notice-modal';
import { IpWhitelistTab } from './ip-whitelist-tab';
import { PasswordTab } from './password-tab';
import { SETTINGS_TAB_ENTRIES, tabFromQuery } from './settings-tabs';
import { TwoFactorTab, useTwoFactorSetup, type TwoFactorSetup } from './two-factor-tab';
import { WalletWhitelistTab } from './wallet-whitelist-tab';

function upgradeNoticeKey(user: User): string {
  return `florin:upgrade-2fa-notice-shown:${user.id}`;
}

function wasUpgradeNoticeShown(user: User): boolean {
  try {
    return window.localStorage.getItem(upgradeNoticeKey(user)) !== null;
  } catch {
    // Storage blocked: showing the notice again is better than never.
    return false;
  }
}

function rememberUpgradeNotice(user: User): void {
  try {
    window.localStorage.setItem(upgradeNoticeKey(user), new Date().toISOString());
  } catch {
    // Storage blocked: nothing to remember it in.
  }
}

function panelFor(tab: SettingsTab, user: User, twoFactorSetup: TwoFactorSetup): ReactNode {
  if (tab === SETTINGS_TABS.password) return <PasswordTab />;
  if (tab === SETTINGS_TABS.twoFactor) return <TwoFactorTab user={user} setup={twoFactorSetup} />;
  if (tab === SETTINGS_TABS.ipWhitelist) return <IpWhitelistTab user={user} />;
  if (tab === SETTINGS_TABS.walletWhitelist) return <WalletWhitelistTab user={user} />;
  return null;
}

/** `/user/settings` (spec 001 section 2), reachable by every signed-in customer, live or not. */
export function SettingsPage() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <SettingsScreen user={user} />;
}

function SettingsScreen({ user }: { user: User }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [isUpgradeNoticeOpen, setIsUpgradeNoticeOpen] = useState(
    () => user.upgraded === 1 && !wasUpgradeNoticeShown(user),
  );
  const tab = isUpgradeNoticeOpen ? SETTINGS_TABS.twoFactor : tabFromQuery(searchParams.get('tab'));
  const twoFactorSetup = useTwoFactorSetup();

  useEffect(() => {
    if (isUpgradeNoticeOpen) rememberUpgradeNotice(user);
  }, [isUpgradeNoticeOpen, user]);

  const selectTab = (value: SettingsTab) => setSearchParams({ tab: value }, { replace: true });

  const handleUpgradeNoticeClose = () => {
    setIsUpgradeNoticeOpen(false);
    setSearchParams({ tab: SETTINGS_TABS.twoFactor }, { replace: true });
  };

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Settings · Florin</title>
      <Title order={1} mb="lg" fz={{ base: 26, sm: 32 }}>
        Settings
      </Title>
      <ResponsiveTabs
        entries={SETTINGS_TAB_ENTRIES}
        value={tab}
        onChange={selectTab}
        renderPanel={(value) => panelFor(value, user, twoFactorSetup)}
      />
      <UpgradeNoticeModal opened={isUpgradeNoticeOpen} onClose={handleUpgradeNoticeClose} />
    </Container>
  );
}
