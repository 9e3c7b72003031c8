import { Alert, Group, Paper, Stack, Text } from '@mantine/core';
import { formatFiat } from '../lib/format';
import { priceSymbol, STALE_PRICES_TEXT } from '../lib/price-feed';
import { isPriceStale, useLivePrice, usePriceStreamStatus } from '../lib/price-stream';

export type LivePricePanelProps = {
  coin: string;
  fiat: string;
  /** false where the page already says that prices are stale. */
  showsStaleNotice?: boolean;
};

/**
 * The live price panel of the instant trade page (spec 2.3): what the
 * customer pays to buy (ask) and receives to sell (bid), from every tick.
 * Indicative only: a trade executes at a server quote (DECISIONS.md).
 */
export function LivePricePanel({ coin, fiat, showsStaleNotice = true }: LivePricePanelProps) {
  const symbol = priceSymbol(coin, fiat);
  const live = useLivePrice(symbol);
  const streamStatus = usePriceStreamStatus();
  const isStale = isPriceStale(live, streamStatus);
  return (
    <Paper withBorder p="md" radius="md" aria-label={`Live price ${symbol}`} component="section">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{symbol}</Text>
          <Text fz="xs" c="dimmed">
            Refreshes every second
          </Text>
        </Group>
        <Group grow>
          <Stack gap={0}>
            <Text fz="xs" c="dimmed">
              Buy
            </Text>
            <Text fz="lg" fw={600} ff="monospace" data-testid="live-price-ask">
              {(live && formatFiat(live.ask, fiat, 'ceil')) ?? '—'}
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text fz="xs" c="dimmed">
              Sell
            </Text>
            <Text fz="lg" fw={600} ff="monospace" data-testid="live-price-bid">
              {(live && formatFiat(live.bid, fiat)) ?? '—'}
            </Text>
          </Stack>
        </Group>
        {showsStaleNotice && isStale && (
          <Alert color="yellow" p="xs" role="status">
            {STALE_PRICES_TEXT}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
