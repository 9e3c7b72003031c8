import type { User } from '@florin/contracts';
import { Accordion, Container, Paper, Tabs, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../lib/current-user';
import { SETTINGS_TABS, type SettingsTab } from '../../lib/paths';
import { UpgradeNoticeModal } from './components/upgrade-notice-modal';
import { IpWhitelistTab } from './ip-whitelist-tab';
import { PasswordTab } from './password-tab';
import classes from './settings-page.module.css';
import { SETTINGS_TAB_ENTRIES, settingsTabEntry, tabFromQuery } from './settings-tabs';
import { TwoFactorTab, useTwoFactorSetup, type TwoFactorSetup } from './two-factor-tab';
import { WalletWhitelistTab } from './wallet-whitelist-tab';

const UNAVAILABLE_HINT = 'Available soon';
/** Spec 001 section 2: the tabs become an accordion at 768 px and below. */
const ACCORDION_QUERY = '(max-width: 48em)';
const TOOLTIP_EVENTS = { hover: true, focus: true, touch: true };

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
  const isAccordion = useMediaQuery(ACCORDION_QUERY, undefined, { getInitialValueInEffect: false });
  const tab = isUpgradeNoticeOpen ? SETTINGS_TABS.twoFactor : tabFromQuery(searchParams.get('tab'));
  const [isAccordionCollapsed, setIsAccordionCollapsed] = useState(false);
  const twoFactorSetup = useTwoFactorSetup();

  useEffect(() => {
    if (isUpgradeNoticeOpen) rememberUpgradeNotice(user);
  }, [isUpgradeNoticeOpen, user]);

  const selectTab = (value: string | null) => {
    const entry = settingsTabEntry(value);
    if (!entry?.isAvailable) return;
    setIsAccordionCollapsed(false);
    setSearchParams({ tab: entry.value }, { replace: true });
  };

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
      {isAccordion ? (
        <Accordion
          variant="separated"
          classNames={{ item: classes.accordionItem }}
          value={isAccordionCollapsed ? null : tab}
          onChange={(value) => (value === null ? setIsAccordionCollapsed(true) : selectTab(value))}
        >
          {SETTINGS_TAB_ENTRIES.map((entry) => (
            <Accordion.Item key={entry.value} value={entry.value}>
              {entry.isAvailable ? (
                <Accordion.Control>{entry.label}</Accordion.Control>
              ) : (
                <Tooltip label={UNAVAILABLE_HINT} events={TOOLTIP_EVENTS}>
                  <Accordion.Control aria-disabled mod={{ disabled: true }}>
                    {entry.label}
                  </Accordion.Control>
                </Tooltip>
              )}
              <Accordion.Panel>
                {!isAccordionCollapsed && tab === entry.value && panelFor(entry.value, user, twoFactorSetup)}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      ) : (
        <Tabs value={tab} onChange={selectTab} keepMounted={false}>
          <Tabs.List mb="lg">
            {SETTINGS_TAB_ENTRIES.map((entry) =>
              entry.isAvailable ? (
                <Tabs.Tab key={entry.value} value={entry.value}>
                  {entry.label}
                </Tabs.Tab>
              ) : (
                <Tooltip key={entry.value} label={UNAVAILABLE_HINT} events={TOOLTIP_EVENTS}>
                  <Tabs.Tab value={entry.value} aria-disabled mod={{ disabled: true }}>
                    {entry.label}
                  </Tabs.Tab>
                </Tooltip>
              ),
            )}
          </Tabs.List>
          {SETTINGS_TAB_ENTRIES.filter((entry) => entry.isAvailable).map((entry) => (
            <Tabs.Panel key={entry.value} value={entry.value}>
              <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
                {panelFor(entry.value, user, twoFactorSetup)}
              </Paper>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <UpgradeNoticeModal opened={isUpgradeNoticeOpen} onClose={handleUpgradeNoticeClose} />
    </Container>
  );
}
