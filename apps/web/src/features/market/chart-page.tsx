import { FIAT_CODES } from '@florin/domain';
import {
  Alert,
  Box,
  Button,
  Container,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useSearchParams } from 'react-router';
import { LivePricePanel } from '../../components/live-price-panel';
import { priceSymbol, STALE_PRICES_TEXT, usePriceFeed } from '../../lib/price-feed';
import { isPriceStale, useLivePrice, usePriceStreamStatus } from '../../lib/price-stream';
import { useCandles } from '../../lib/candles-query';
import { DEFAULT_RESOLUTION, isResolution, RESOLUTION_KEYS, RESOLUTIONS } from '../../lib/candles';
import { PriceChart } from '../../components/price-chart';

/** Spec section 9: the default pair. */
const DEFAULT_PAIR = 'BTC/GBP';
const CHART_HEIGHT = 420;

/** `BTC/GBP` from the address (`?pair=BTC-GBP`), or the default when absent or not offered. */
function pairFromSearch(value: string | null, pairs: readonly string[]): string {
  const pair = value?.replace('-', '/').toUpperCase();
  return pair && pairs.includes(pair) ? pair : DEFAULT_PAIR;
}

/** Every active coin against each fiat a customer can hold (DECISIONS.md: coins trade against GBP, EUR and USD). */
function pairsOf(coins: readonly string[]): string[] {
  const offered = coins.length > 0 ? coins : ['BTC'];
  return offered.flatMap((coin) => FIAT_CODES.map((fiat) => priceSymbol(coin, fiat)));
}

/** `/user/chart`: one pair's candles at 5 minutes, 4 hours or 1 day, kept live by the price stream. */
export function ChartPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const feed = usePriceFeed();
  const pairs = pairsOf(Object.keys(feed.data ?? {}).map((coin) => coin.toUpperCase()));
  const pair = pairFromSearch(searchParams.get('pair'), pairs);
  const [coin = 'BTC', fiat = 'GBP'] = pair.split('/');
  const resolutionParam = searchParams.get('resolution');
  const resolution = isResolution(resolutionParam) ? resolutionParam : DEFAULT_RESOLUTION;
  const candles = useCandles(coin, fiat, resolution);
  const live = useLivePrice(pair);
  const streamStatus = usePriceStreamStatus();
  const isStale = isPriceStale(live, streamStatus);

  function updateSearch(name: 'pair' | 'resolution', value: string) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, name === 'pair' ? value.replace('/', '-') : value);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <title>Chart · Florin</title>
      <Stack gap="md">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          Chart
        </Title>
        <Group justify="space-between" align="flex-end" gap="sm">
          <Select
            label="Pair"
            data={pairs}
            value={pair}
            onChange={(value) => value && updateSearch('pair', value)}
            allowDeselect={false}
            searchable
            w={{ base: '100%', xs: 200 }}
          />
          <SegmentedControl
            aria-label="Resolution"
            data={RESOLUTION_KEYS.map((key) => ({ value: key, label: RESOLUTIONS[key].label }))}
            value={resolution}
            onChange={(value) => updateSearch('resolution', value)}
          />
        </Group>
        {isStale && (
          <Alert color="yellow" role="status" title="Prices paused">
            {STALE_PRICES_TEXT}
          </Alert>
        )}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Paper withBorder p={{ base: 'xs', sm: 'md' }} radius="md">
              {candles.isPending ? (
                <Stack h={CHART_HEIGHT} align="center" justify="center" gap="xs" role="status">
                  <Loader aria-hidden />
                  <Text c="dimmed">Loading chart…</Text>
                </Stack>
              ) : candles.isError ? (
                <Stack h={CHART_HEIGHT} align="center" justify="center" gap="sm">
                  <Text>The chart could not be loaded.</Text>
                  <Button variant="light" onClick={() => void candles.refetch()}>
                    Try again
                  </Button>
                </Stack>
              ) : (
                <Box>
                  <PriceChart
                    key={`${pair} ${resolution}`}
                    coin={coin}
                    fiat={fiat}
                    resolution={resolution}
                    candles={candles.data}
                    height={CHART_HEIGHT}
                  />
                  {candles.data.length === 0 && (
                    <Text c="dimmed" fz="sm" mt="xs">
                      No trades in this period yet: candles appear as prices arrive.
                    </Text>
                  )}
                </Box>
              )}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 3 }}>
            {/* The page says when prices are stale above; the panel need not say it twice. */}
            <LivePricePanel coin={coin} fiat={fiat} showsStaleNotice={false} />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
