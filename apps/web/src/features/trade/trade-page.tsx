import { Container, Skeleton, Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../lib/current-user';
import { InstantTrade } from './instant/instant-trade';
import { TradingScreen } from './trading/trading-screen';
import { InvestorGate } from '../../components/investor-gate';

/** The tabs of a trading account's /user/trade, as `?tab=` names them; the trading screen when absent. */
const TRADE_TABS = { trade: 'trade', instant: 'instant' } as const;
type TradeTab = (typeof TRADE_TABS)[keyof typeof TRADE_TABS];

function readTab(value: string | null): TradeTab {
  return value === TRADE_TABS.instant ? TRADE_TABS.instant : TRADE_TABS.trade;
}

/**
 * `/user/trade` (DECISIONS.md, Routes): an instant account (platform 1) sees
 * the instant page; a trading account (platform 2) sees the trading screen
 * with the instant page under a second tab.
 */
export function TradePage() {
  const { data: user } = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = readTab(searchParams.get('tab'));

  const selectTab = (value: string | null) => {
    const params = new URLSearchParams(searchParams);
    if (readTab(value) === TRADE_TABS.instant) params.set('tab', TRADE_TABS.instant);
    else params.delete('tab');
    setSearchParams(params, { replace: true });
  };

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Trade · Florin</title>
      <Stack gap="lg">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {user?.platform === 2 ? 'Trade' : 'Instant Trade'}
        </Title>
        {user && <InvestorGate />}
        {!user && <Skeleton height={320} />}
        {user && user.platform !== 2 && <InstantTrade />}
        {user?.platform === 2 && (
          <Tabs value={tab} onChange={selectTab} keepMounted={false}>
            <Tabs.List mb="lg">
              <Tabs.Tab value={TRADE_TABS.trade}>Trade</Tabs.Tab>
              <Tabs.Tab value={TRADE_TABS.instant}>Instant</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value={TRADE_TABS.trade}>
              <TradingScreen />
            </Tabs.Panel>
            <Tabs.Panel value={TRADE_TABS.instant}>
              <InstantTrade />
            </Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Container>
  );
}
