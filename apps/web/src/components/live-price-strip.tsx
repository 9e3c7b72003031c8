import type { PriceFeedItem } from '@florin/contracts';
import { Box, Center, Group, Paper, ScrollArea, Text } from '@mantine/core';
import { formatPounds } from '../lib/format';
import { priceSymbol, STALE_PRICES_TEXT, usePriceFeed } from '../lib/price-feed';
import { useLivePrice, usePriceStreamStatus } from '../lib/price-stream';

/**
 * The height of the row of prices (a card and the scrollbar's room), kept
 * while the feed loads, so the page under it does not move when it arrives.
 */
const STRIP_HEIGHT = 81;

/**
 * The public site's live price feed (spec 2.7): each active coin's GBP bid,
 * from the price feed call and then from every tick of the price stream.
 * Hidden when the feed cannot be loaded: a marketing page should not show
 * an error block.
 */
export function LivePriceStrip() {
  const feed = usePriceFeed();
  const streamStatus = usePriceStreamStatus();
  const items = feed.data ? Object.values(feed.data) : [];
  if (!feed.isPending && items.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="live-prices-title" py="md" bg="gray.0">
      <Text id="live-prices-title" fw={700} fz="sm" ta="center" mb="xs">
        Live prices
      </Text>
      {feed.isPending ? (
        // Words rather than a spinner: this shows in the prerendered page until the scripts arrive, and an
        // animation that long keeps a slow phone's main thread painting (Lighthouse's blocking time doubled).
        <Center h={STRIP_HEIGHT}>
          <Text role="status" fz="sm" c="dimmed">
            Loading prices…
          </Text>
        </Center>
      ) : (
        <PriceRow items={items} isStreamDown={streamStatus === 'reconnecting'} />
      )}
      {streamStatus === 'reconnecting' && (
        <Text role="status" fz="xs" c="orange.9" ta="center" px="md">
          {STALE_PRICES_TEXT}
        </Text>
      )}
    </Box>
  );
}

function PriceRow({ items, isStreamDown }: { items: PriceFeedItem[]; isStreamDown: boolean }) {
  return (
    <ScrollArea type="auto" offsetScrollbars mih={STRIP_HEIGHT}>
      <Group
        component="ul"
        gap="sm"
        wrap="nowrap"
        px="md"
        my={0}
        // Centred by its own width, not by justify: a centred flex row that overflows cuts off its first items.
        mx="auto"
        w="max-content"
        style={{ listStyle: 'none' }}
      >
        {items.map((item) => (
          <LivePriceItem key={item.coin.coin_id} item={item} isStreamDown={isStreamDown} />
        ))}
      </Group>
    </ScrollArea>
  );
}

function LivePriceItem({ item, isStreamDown }: { item: PriceFeedItem; isStreamDown: boolean }) {
  const coin = item.coin.coin_id.toUpperCase();
  const live = useLivePrice(priceSymbol(coin, 'GBP'));
  const bid = live ? live.bid : item.details.gbp_bid;
  const isStale = isStreamDown || (live ? live.stale : item.details.gbp_bid === null);
  const change = item.percentage;
  return (
    <Paper
      component="li"
      withBorder
      px="md"
      py="xs"
      radius="md"
      miw={150}
      aria-label={`${item.coin.name} (${coin})`}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fw={700} fz="sm">
          {coin}
        </Text>
        {change !== null && (
          <Text fz="xs" c={change.startsWith('-') ? 'red.9' : 'teal.9'}>
            {change.startsWith('-') ? change : `+${change}`}%
          </Text>
        )}
      </Group>
      <Text fz="md" ff="monospace" data-testid={`strip-price-${coin}`}>
        {(bid !== null && formatPounds(bid)) || '—'}
      </Text>
      {isStale && (
        <Text fz="xs" c="orange.9">
          Stale price
        </Text>
      )}
    </Paper>
  );
}
