import type { PriceFeedItem } from '@florin/contracts';
import { Alert, Button, Center, Group, Loader, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { formatFiat } from '../../../lib/format';
import { PATHS, tradePath } from '../../../lib/paths';
import { priceSymbol, STALE_PRICES_TEXT, usePriceFeed } from '../../../lib/price-feed';
import { isPriceStale, useLivePrice, usePriceStreamStatus } from '../../../lib/price-stream';
import { ScrollableTable, StaticPage } from '../static-page';
import classes from './live-prices-page.module.css';

/**
 * DECISIONS.md, Routes: every active coin's GBP prices, first from the price
 * feed and then from every tick of the price stream, as the live price strip does.
 */
export function LivePricesPage() {
  const feed = usePriceFeed();
  const streamStatus = usePriceStreamStatus();
  const items = feed.data ? Object.values(feed.data) : [];
  return (
    <StaticPage
      title="Live crypto prices"
      description="Live prices in pounds sterling of every cryptoasset you can buy and sell on Florin, with their change over the last 24 hours."
      width="wide"
      actions={
        <Group gap="sm">
          <Button component={Link} to={PATHS.register}>
            Create an account
          </Button>
          <Button component={Link} to={PATHS.login} variant="default">
            Log in
          </Button>
        </Group>
      }
    >
      <p>
        Prices in pounds sterling, updated every second. <strong>Buy</strong> is what you pay for one coin and{' '}
        <strong>Sell</strong> what you receive for one; both include our spread, and our{' '}
        <Link to={PATHS.fees}>fee</Link> is added when you trade. The price you see before you confirm a trade
        is the price you get.
      </p>
      {feed.isError ? (
        <Alert color="red" title="Prices could not be loaded" role="alert">
          <p>Please check your connection and try again.</p>
          <Button variant="light" color="red" onClick={() => void feed.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : feed.isPending ? (
        <Center py="xl" role="status" aria-label="Loading prices">
          <Loader />
        </Center>
      ) : items.length === 0 ? (
        <p>No cryptoassets are trading right now. Please come back later.</p>
      ) : (
        <>
          {streamStatus === 'reconnecting' && (
            <Alert color="yellow" role="status" mb="md">
              {STALE_PRICES_TEXT}
            </Alert>
          )}
          <ScrollableTable label="Live prices">
            <table aria-label="Live prices in pounds sterling">
              <thead>
                <tr>
                  <th scope="col">Coin</th>
                  <th scope="col">Buy</th>
                  <th scope="col">Sell</th>
                  <th scope="col">24 h change</th>
                  <th scope="col" className={classes.wideOnly}>
                    <VisuallyHidden>Trade</VisuallyHidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <PriceRow key={item.coin.coin_id} item={item} />
                ))}
              </tbody>
            </table>
          </ScrollableTable>
        </>
      )}
    </StaticPage>
  );
}

/** Mantine's green.9 is 4.4:1 on white, below WCAG AA for body text; this one is 6.1:1. */
const RISE_COLOUR = '#237032';

function PriceRow({ item }: { item: PriceFeedItem }) {
  const coin = item.coin.coin_id.toUpperCase();
  const live = useLivePrice(priceSymbol(coin, 'GBP'));
  const streamStatus = usePriceStreamStatus();
  const bid = live ? live.bid : item.details.gbp_bid;
  const isStale = live ? isPriceStale(live, streamStatus) : item.details.gbp_bid === null;
  const change = item.percentage;
  return (
    <tr data-testid={`price-row-${item.coin.coin_id}`}>
      <th scope="row">
        {item.coin.name}{' '}
        <Text span c="dimmed" fz="sm">
          {coin}
        </Text>
        {isStale && (
          <Text fz="xs" c="orange.9">
            Stale price
          </Text>
        )}
        <Text fz="sm" fw={400} className={classes.narrowOnly}>
          <TradeLink item={item} />
        </Text>
      </th>
      <td data-testid="price-buy">{(live && formatFiat(live.ask, 'GBP', 'ceil')) ?? '—'}</td>
      <td data-testid="price-sell">{(bid !== null && formatFiat(bid, 'GBP')) || '—'}</td>
      <td>
        {change === null ? (
          '—'
        ) : (
          <Text span fz="sm" c={change.startsWith('-') ? 'red.9' : RISE_COLOUR}>
            {change.startsWith('-') ? `${change}%` : `+${change}%`}
          </Text>
        )}
      </td>
      <td className={classes.wideOnly}>
        <TradeLink item={item} />
      </td>
    </tr>
  );
}

function TradeLink({ item }: { item: PriceFeedItem }) {
  return (
    <Link to={tradePath('buy', item.coin.coin_id)}>
      Trade<VisuallyHidden> {item.coin.name}</VisuallyHidden>
    </Link>
  );
}
