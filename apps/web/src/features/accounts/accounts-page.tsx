import { ACCOUNT_TEXTS, type User } from '@florin/contracts';
import { Container, Title } from '@mantine/core';
import { useState } from 'react';
import { ResponsiveTabs } from '../../components/responsive-tabs';
import { useCurrentUser } from '../../lib/current-user';
import { AccountDetailsTab } from './account-details-tab';
import { ChangeDetailsModal } from './change-details-modal';
import { AlertsTab } from './alerts-tab';
import { ApiTab, useRevealedToken } from './api-tab';
import { AutoTradeTab } from './auto-trade-tab';
import { ACCOUNT_TAB_ENTRIES, ACCOUNT_TABS, type AccountTab } from './account-tabs';
import { PromoTab } from './promo-tab';
import { ReferralsTab } from './referrals-tab';
import { TierTab } from './tier-tab';
import { UpgradeModal } from './upgrade-modal';

type AccountsPageProps = {
  /** Signing out belongs to the app; the upgrade's last step asks for it. */
  onLogOut: () => void;
  isLoggingOut: boolean;
};

/** `/user/accounts` (spec 002 §2.2): tabs on wide screens, an accordion at 768 px and below. */
export function AccountsPage(props: AccountsPageProps) {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <AccountsScreen user={user} {...props} />;
}

function AccountsScreen({ user, onLogOut, isLoggingOut }: AccountsPageProps & { user: User }) {
  const [tab, setTab] = useState<AccountTab>(ACCOUNT_TABS.details);
  const [isUpgradeOpen, setIsUpgradeOpen] = useState(false);
  const [isChangingDetails, setIsChangingDetails] = useState(false);
  const revealedToken = useRevealedToken();

  const panelFor = (value: AccountTab) =>
    value === ACCOUNT_TABS.details ? (
      <AccountDetailsTab
        user={user}
        onUpgrade={() => setIsUpgradeOpen(true)}
        onChangeDetails={() => setIsChangingDetails(true)}
      />
    ) : value === ACCOUNT_TABS.referrals ? (
      <ReferralsTab />
    ) : value === ACCOUNT_TABS.promo ? (
      <PromoTab userId={user.id} />
    ) : value === ACCOUNT_TABS.alerts ? (
      <AlertsTab user={user} />
    ) : value === ACCOUNT_TABS.api ? (
      <ApiTab userId={user.id} revealed={revealedToken} />
    ) : value === ACCOUNT_TABS.tier ? (
      <TierTab />
    ) : value === ACCOUNT_TABS.autoTrade ? (
      <AutoTradeTab user={user} />
    ) : null;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Account · Florin</title>
      <Title order={1} mb="lg" fz={{ base: 26, sm: 32 }}>
        {ACCOUNT_TEXTS.pageTitle}
      </Title>
      <ResponsiveTabs
        entries={ACCOUNT_TAB_ENTRIES}
        value={tab}
        onChange={setTab}
        renderPanel={panelFor}
        unavailableHint={ACCOUNT_TEXTS.unavailable}
      />
      {/*
        Outside the tabs: turning a phone (tabs to accordion) or a refetched user (now platform 2)
        must not take Upgrade Complete! away, nor a half-typed new address. The details form is
        mounted when opened, so it starts from the details as they are now.
      */}
      {isChangingDetails && <ChangeDetailsModal user={user} onClose={() => setIsChangingDetails(false)} />}
      <UpgradeModal
        opened={isUpgradeOpen}
        onClose={() => setIsUpgradeOpen(false)}
        onLogOut={onLogOut}
        isLoggingOut={isLoggingOut}
      />
    </Container>
  );
}
