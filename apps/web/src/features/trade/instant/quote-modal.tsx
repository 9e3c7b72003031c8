import { assetOfCoinId, QUOTE_SECONDS, type Quote } from '@florin/contracts';
import { scaleOf } from '@florin/domain';
import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDecimal, formatFiat } from '../../../lib/format';
import { formatTradePrice, INSTANT_QUANTITY_PLACES } from './instant-amounts';

export type QuoteModalProps = {
  /** The quote shown; the modal is open while there is one. */
  quote: Quote | null;
  secondsLeft: number;
  /** A new quote is on its way (the countdown reached zero): Execute waits for it. */
  isRequoting: boolean;
  isExecuting: boolean;
  onExecute: () => void;
  onClose: () => void;
};

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} ff="monospace" ta="right" data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}

function quantityText(quote: Quote): string {
  const asset = assetOfCoinId(quote.coin_id);
  const places = Math.min(scaleOf(asset), INSTANT_QUANTITY_PLACES);
  return `${formatDecimal(quote.quantity, places) ?? quote.quantity} ${asset}`;
}

/**
 * The preview of an instant order (spec 002 sections 2.3 and 4): the server's
 * quote, a countdown of QUOTE_SECONDS after which the page fetches a new one,
 * and Execute, which executes exactly the quote shown.
 */
export function QuoteModal({
  quote,
  secondsLeft,
  isRequoting,
  isExecuting,
  onExecute,
  onClose,
}: QuoteModalProps) {
  const fiat = quote?.currency.toUpperCase() ?? 'GBP';
  const money = (value: string) => formatFiat(value, fiat) ?? value;
  return (
    <Modal
      opened={quote !== null}
      onClose={onClose}
      title={
        quote ? `Preview Order: ${quote.side === 'buy' ? 'Buy' : 'Sell'} ${quote.symbol}` : 'Preview Order'
      }
      centered
      closeOnClickOutside={!isExecuting}
      closeOnEscape={!isExecuting}
      withCloseButton={!isExecuting}
    >
      {quote && (
        <Stack gap="sm" data-quote-id={quote.id} data-testid="quote">
          <Row label="Price" testId="quote-price">
            {formatTradePrice(quote.price, quote.currency, quote.coin_id, quote.side) ?? quote.price}
          </Row>
          <Row label="Quantity" testId="quote-quantity">
            {quantityText(quote)}
          </Row>
          <Row label={`Fee (${quote.fee_percent}%)`} testId="quote-fee">
            {money(quote.fee)}
          </Row>
          <Row label={quote.side === 'buy' ? 'Total' : 'Total (you receive)'} testId="quote-total">
            {money(quote.total_cost_w_fee)}
          </Row>
          <Stack gap={4}>
            <Text size="sm" aria-live="off" data-testid="quote-countdown">
              {isRequoting ? 'Refreshing the price…' : `Price refreshes in ${secondsLeft} s`}
            </Text>
            <Progress
              value={(Math.max(secondsLeft, 0) / QUOTE_SECONDS) * 100}
              size="sm"
              aria-label="Time left at this price"
              transitionDuration={0}
            />
          </Stack>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={isExecuting}>
              Cancel
            </Button>
            <Button onClick={onExecute} loading={isExecuting} disabled={isRequoting}>
              Execute
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
