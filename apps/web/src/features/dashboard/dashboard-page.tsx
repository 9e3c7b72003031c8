import { Box, Button, Container, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useMemo } from 'react';
import { RecentActivity } from '../../components/recent-activity';
import { moneyActions, useCurrentUser } from '../../lib/current-user';
import { formatPounds } from '../../lib/format';
import { usePriceFeed } from '../../lib/price-feed';
import { useBalances, useLivePortfolio } from '../../lib/portfolio';
import { buildAssetRows, HIDDEN_FUNDS_TEXT, HIDE_FUNDS_KEY } from './assets';
import { AssetsTable, HideFundsToggle } from './components/assets-table';

function AssetsSkeleton() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading your assets">
      <Skeleton height={28} width="40%" />
      {[0, 1, 2, 3].map((key) => (
        <Skeleton key={key} height={44} />
      ))}
    </Stack>
  );
}

function AssetsFailed({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <Stack align="center" ta="center" gap="xs" p="lg" role="alert">
      <Text fw={600}>Your balances could not be loaded.</Text>
      <Text size="sm" c="dimmed">
        Please try again; if it keeps happening, contact support.
      </Text>
      <Button variant="light" onClick={onRetry} loading={isRetrying}>
        Try again
      </Button>
    </Stack>
  );
}

/**
 * `/user` for a live customer (spec 000 section 2): what they hold and what
 * it is worth, and what happened recently. Both follow the customer's money
 * live over the page's stream.
 */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  const balances = useBalances();
  const priceFeed = usePriceFeed();
  useLivePortfolio();
  const [isHidden, setIsHidden] = useLocalStorage<boolean>({
    key: HIDE_FUNDS_KEY,
    defaultValue: false,
    getInitialValueInEffect: false,
  });

  const rows = useMemo(() => {
    if (!balances.data) return [];
    const feed = priceFeed.data ?? {};
    const coinNames = Object.fromEntries(Object.entries(feed).map(([id, item]) => [id, item.coin.name]));
    return buildAssetRows({ balances: balances.data.balances, activeCoins: Object.keys(feed), coinNames });
  }, [balances.data, priceFeed.data]);

  const actions = user ? moneyActions(user) : 'none';
  const toggleHidden = () => setIsHidden((hidden) => !hidden);
  const total = balances.data ? (formatPounds(balances.data.total_gbp) ?? balances.data.total_gbp) : null;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Dashboard · Florin</title>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="xs">
          <Stack gap={2}>
            <Title order={1} fz={{ base: 26, sm: 32 }}>
              Dashboard
            </Title>
            {user && <Text c="dimmed">Welcome back, {user.first_name}.</Text>}
          </Stack>
          {total !== null && (
            <Stack gap={0} ta="right">
              <Text size="sm" c="dimmed">
                Total portfolio value
              </Text>
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Text fz={{ base: 22, sm: 26 }} fw={700} ff="monospace" data-testid="portfolio-total">
                  {isHidden ? HIDDEN_FUNDS_TEXT : total}
                </Text>
                <Box hiddenFrom="sm">
                  <HideFundsToggle isHidden={isHidden} onToggle={toggleHidden} />
                </Box>
              </Group>
            </Stack>
          )}
        </Group>

        <Paper
          component="section"
          withBorder
          radius="md"
          p={{ base: 'sm', sm: 'md' }}
          aria-labelledby="assets-heading"
        >
          <Stack gap="sm">
            <Title order={2} fz={{ base: 18, sm: 20 }} id="assets-heading">
              Assets
            </Title>
            {balances.data?.prices_stale && (
              <Text size="sm" c="orange.8" role="note">
                Some prices are unavailable just now: those coins show no value and the total leaves them out.
              </Text>
            )}
            {balances.isPending && <AssetsSkeleton />}
            {balances.isError && !balances.data && (
              <AssetsFailed onRetry={() => void balances.refetch()} isRetrying={balances.isFetching} />
            )}
            {balances.data && (
              <AssetsTable rows={rows} isHidden={isHidden} onToggleHidden={toggleHidden} actions={actions} />
            )}
          </Stack>
        </Paper>

        <RecentActivity />
      </Stack>
    </Container>
  );
}
