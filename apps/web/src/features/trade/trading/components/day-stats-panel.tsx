import type { CoinId } from '@florin/contracts';
import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDayCandles } from '../api/get-day-candles';
import { computeDayStats } from '../day-stats';

const PRICE_FORMAT = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const SIGNED_PRICE_FORMAT = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
const PERCENT_FORMAT = new Intl.NumberFormat('en-GB', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
});

export type DayStatsPanelProps = {
  coin: CoinId;
  /** The live mid, which moves the last price, change and range between candle refetches. */
  livePrice: number | undefined;
};

/**
 * The 24-hour statistics of the pair against GBP (spec 002 section 2.4):
 * previous close, high, low, change and change percent, from the last 24
 * hourly candles and the live price.
 */
export function DayStatsPanel({ coin, livePrice }: DayStatsPanelProps) {
  const candles = useDayCandles(coin);
  const stats = candles.data ? computeDayStats(candles.data, livePrice) : null;
  const direction = stats && stats.change !== 0 ? (stats.change > 0 ? 'teal.8' : 'red.8') : undefined;
  const entries = stats
    ? ([
        ['previous-close', 'Previous close', PRICE_FORMAT.format(stats.previousClose), undefined],
        ['high', '24h high', PRICE_FORMAT.format(stats.high), undefined],
        ['low', '24h low', PRICE_FORMAT.format(stats.low), undefined],
        ['change', '24h change', SIGNED_PRICE_FORMAT.format(stats.change), direction],
        [
          'change-percent',
          '24h change %',
          stats.changePercent === null ? '—' : `${PERCENT_FORMAT.format(stats.changePercent)} %`,
          direction,
        ],
      ] as const)
    : [];

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-label="24-hour statistics"
    >
      {candles.isPending ? (
        <Group justify="center" role="status">
          <Loader size="sm" aria-hidden />
          <Text c="dimmed" fz="sm">
            Loading the last 24 hours…
          </Text>
        </Group>
      ) : candles.isError ? (
        <Group justify="center" gap="sm" role="alert">
          <Text c="dimmed" fz="sm">
            The 24-hour statistics could not be loaded.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => void candles.refetch()}>
            Try again
          </Button>
        </Group>
      ) : !stats ? (
        <Text c="dimmed" fz="sm">
          No prices in the last 24 hours yet.
        </Text>
      ) : (
        <SimpleGrid component="dl" cols={{ base: 2, sm: 5 }} spacing="sm" verticalSpacing="xs" my={0}>
          {entries.map(([id, label, value, colour]) => (
            <Stack key={id} gap={0}>
              <Text component="dt" fz="xs" c="dimmed">
                {label}
              </Text>
              <Text
                component="dd"
                fz="sm"
                fw={600}
                m={0}
                ff="monospace"
                c={colour}
                data-testid={`stat-${id}`}
              >
                {value}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
