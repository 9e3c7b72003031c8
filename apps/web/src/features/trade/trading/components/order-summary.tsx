import type { CoinId, PriceUpdate } from '@florin/contracts';
import { priceDecimals } from '@florin/domain';
import { Group, Stack, Text } from '@mantine/core';
import { COIN_DECIMALS, formatDecimal, formatFiat, formatPounds } from '../../../../lib/format';
import type { orderValues } from '../order-math';

/** `£20,123.45` with the coin's price decimals (2, or 5 for xlm). */
export function formatPrice(value: string, coin: CoinId): string {
  return `£${formatDecimal(value, priceDecimals(coin)) ?? value}`;
}

/** What the order comes to and what the customer holds, as a definition list beside the SELL and BUY buttons. */
export function OrderSummary({
  coin,
  isMarket,
  live,
  feePercent,
  values,
  gbpAvailable,
  coinAvailable,
}: {
  coin: CoinId;
  isMarket: boolean;
  live: PriceUpdate | undefined;
  feePercent: string | undefined;
  values: ReturnType<typeof orderValues> | null;
  gbpAvailable: string | undefined;
  coinAvailable: string | undefined;
}) {
  const code = coin.toUpperCase();
  return (
    <Stack component="dl" gap={4} my={0} aria-label="Order summary">
      {isMarket && (
        <SummaryRow
          label="Market price"
          lines={live ? [`Buy ${formatPrice(live.ask, coin)}`, `Sell ${formatPrice(live.bid, coin)}`] : ['—']}
          testId="order-market-price"
        />
      )}
      <SummaryRow label="Fee" value={feePercent === undefined ? '—' : `${feePercent} %`} testId="order-fee" />
      <SummaryRow
        label="Order value"
        value={values ? (formatPounds(values.orderValue) ?? '—') : '—'}
        testId="order-value"
      />
      <SummaryRow
        label="Value in GBP"
        lines={
          values
            ? [
                `Buy ${formatFiat(values.buyTotal, 'GBP') ?? ''}`,
                `Sell ${formatFiat(values.sellTotal, 'GBP') ?? ''}`,
              ]
            : ['—']
        }
        testId="order-value-gbp"
      />
      <SummaryRow
        label="Available GBP"
        value={gbpAvailable === undefined ? '—' : (formatPounds(gbpAvailable) ?? gbpAvailable)}
        testId="available-gbp"
      />
      <SummaryRow
        label={`Available ${code}`}
        value={
          coinAvailable === undefined
            ? '—'
            : `${formatDecimal(coinAvailable, COIN_DECIMALS) ?? coinAvailable} ${code}`
        }
        testId="available-coin"
      />
    </Stack>
  );
}

function SummaryRow({
  label,
  value,
  lines,
  testId,
}: {
  label: string;
  value?: string;
  /** A value of several lines (buy and sell). */
  lines?: readonly string[];
  testId: string;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
      <Text component="dt" fz="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" fz="sm" fw={600} m={0} ff="monospace" ta="right" data-testid={testId}>
        {lines
          ? lines.map((line) => (
              <span key={line} style={{ display: 'block' }}>
                {line}
              </span>
            ))
          : value}
      </Text>
    </Group>
  );
}
