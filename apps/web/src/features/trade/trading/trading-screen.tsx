import { COIN_IDS, CoinIdSchema, type CoinId } from '@florin/contracts';
import {
  Alert,
  Box,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PriceChart } from '../../../components/price-chart';
import { useCandles } from '../../../lib/candles-query';
import { useBalances, useLivePortfolio } from '../../../lib/portfolio';
import { priceSymbol, STALE_PRICES_TEXT } from '../../../lib/price-feed';
import { isPriceStale, useLivePrice, usePriceStreamStatus, useUserEvents } from '../../../lib/price-stream';
import { useTradingTerms } from '../api/get-trading-terms';
import { refreshTrading, TRADING_KEYS } from './api/trading-keys';
import { DayStatsPanel } from './components/day-stats-panel';
import { OrderForm } from './components/order-form';
import { OrdersPanel } from './components/orders-panel';
import type { OrderKind } from './order-math';

/** Spec 002 section 2.4: the default pair is BTC/GBP. */
const DEFAULT_COIN: CoinId = 'btc';
const CHART_RESOLUTION = '5';
const CHART_HEIGHT = 360;

const ORDER_KINDS: readonly { value: OrderKind; label: string }[] = [
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
];

/**
 * The trading screen of a trading-platform customer (spec 002 section 2.4):
 * the pair's chart and 24-hour statistics, the market or limit order form,
 * and their positions and open orders beneath. The pair is the coin against
 * GBP; `?coin=` (the dashboard's Buy and Sell) chooses the coin.
 */
export function TradingScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [kind, setKind] = useState<OrderKind>('market');
  const queryClient = useQueryClient();
  const terms = useTradingTerms();
  const balances = useBalances();
  useLivePortfolio();
  // A fill happens on the server's tick: the events say so, and the lists follow.
  useUserEvents((event) => {
    if (event === 'balances') void refreshTrading(queryClient);
    if (event === 'orders') void queryClient.invalidateQueries({ queryKey: TRADING_KEYS.openOrders });
  });

  // Coins with both buying and selling paused are left out (DECISIONS.md).
  const tradable = terms.data?.coins.filter((entry) => entry.can_buy || entry.can_sell) ?? [];
  const coins: CoinId[] = terms.data ? tradable.map((entry) => entry.coin_id) : [...COIN_IDS];
  const asked = CoinIdSchema.safeParse(searchParams.get('coin')?.toLowerCase());
  const coin: CoinId =
    asked.success && coins.includes(asked.data)
      ? asked.data
      : coins.includes(DEFAULT_COIN)
        ? DEFAULT_COIN
        : (coins[0] ?? DEFAULT_COIN);
  const code = coin.toUpperCase();
  const symbol = priceSymbol(code, 'GBP');

  const live = useLivePrice(symbol);
  const streamStatus = usePriceStreamStatus();
  const isStale = isPriceStale(live, streamStatus);
  const candles = useCandles(code, 'GBP', CHART_RESOLUTION);
  const coinTerms = terms.data?.coins.find((entry) => entry.coin_id === coin);
  const held = balances.data?.balances;

  function chooseCoin(value: string | null) {
    const parsed = CoinIdSchema.safeParse(value);
    if (!parsed.success) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('coin', parsed.data);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label="Coin"
          data={coins.map((value) => ({ value, label: priceSymbol(value, 'GBP') }))}
          value={coin}
          onChange={chooseCoin}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
        <SegmentedControl
          aria-label="Order type"
          data={ORDER_KINDS.map((entry) => ({ ...entry }))}
          value={kind}
          onChange={(value) => setKind(value === 'limit' ? 'limit' : 'market')}
        />
      </Group>
      {terms.isError && (
        <Alert color="red" role="alert" title="Trading terms unavailable">
          <Group gap="sm">
            <Text fz="sm">Your fees and limits could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void terms.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      )}
      {isStale && (
        <Alert color="yellow" role="status" title="Prices paused">
          {STALE_PRICES_TEXT}
        </Alert>
      )}
      <DayStatsPanel coin={coin} livePrice={live ? Number(live.mid) : undefined} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          {/* As tall as the order card beside it (cards in a row share one height); the chart sits in the middle. */}
          <Paper
            withBorder
            p={{ base: 'xs', sm: 'md' }}
            radius="md"
            h="100%"
            display="flex"
            style={{ flexDirection: 'column', justifyContent: 'center' }}
            aria-label={`${symbol} chart`}
          >
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
                  key={symbol}
                  coin={code}
                  fiat="GBP"
                  resolution={CHART_RESOLUTION}
                  candles={candles.data}
                  height={CHART_HEIGHT}
                />
              </Box>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <OrderForm
            key={coin}
            coin={coin}
            kind={kind}
            terms={coinTerms}
            gbpAvailable={held ? (held.GBP?.available ?? '0') : undefined}
            coinAvailable={held ? (held[coin]?.available ?? '0') : undefined}
            live={live}
            isStale={isStale}
          />
        </Grid.Col>
      </Grid>
      <OrdersPanel />
    </Stack>
  );
}
