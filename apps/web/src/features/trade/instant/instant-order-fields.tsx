import type { TradeSide } from '@florin/contracts';
import { Button, Group, Text, TextInput } from '@mantine/core';
import {
  cleanDecimalInput,
  COST_PLACES,
  limitsText,
  quantityPlaces,
  type AmountSource,
  type TradeCoin,
} from './instant-amounts';

export type Amount = { source: AmountSource; text: string };

/** What the customer holds to trade with: the fiat wallet and the coin, as the screen formats them. */
export function BalanceRows({
  fiatAvailable,
  coinAvailable,
  coinCode,
}: {
  fiatAvailable: string;
  coinAvailable: string;
  coinCode: string;
}) {
  return (
    <>
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          Available
        </Text>
        <Text size="sm" ff="monospace" data-testid="available-fiat">
          {fiatAvailable}
        </Text>
      </Group>
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {coinCode} balance
        </Text>
        <Text size="sm" ff="monospace" data-testid="available-coin">
          {coinAvailable} {coinCode}
        </Text>
      </Group>
    </>
  );
}

/**
 * The Quantity and Cost fields: the customer types one, the screen works out the other. A focused field is
 * held (`onHold`) at what it showed, so the ticking price does not change it under the cursor.
 */
export function InstantAmountFields({
  side,
  coin,
  fiatCode,
  canFillMax,
  quantityShown,
  costShown,
  onHold,
  onRelease,
  onAmountChange,
  onFillMax,
}: {
  side: TradeSide;
  coin: TradeCoin | undefined;
  fiatCode: string;
  canFillMax: boolean;
  quantityShown: string;
  costShown: string;
  onHold: (field: AmountSource, text: string) => void;
  onRelease: () => void;
  onAmountChange: (amount: Amount) => void;
  onFillMax: () => void;
}) {
  const coinId = coin?.coin_id;
  const coinCode = coinId?.toUpperCase() ?? '';
  return (
    <>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label="Quantity"
          description={coin ? limitsText(coin) : undefined}
          inputMode={coinId === 'xrp' ? 'numeric' : 'decimal'}
          autoComplete="off"
          placeholder="0"
          value={quantityShown}
          onFocus={() => onHold('quantity', quantityShown)}
          onBlur={onRelease}
          onChange={(event) =>
            onAmountChange({
              source: 'quantity',
              text: cleanDecimalInput(event.currentTarget.value, coinId ? quantityPlaces(coinId) : 8),
            })
          }
          rightSection={
            <Text size="xs" c="dimmed">
              {coinCode}
            </Text>
          }
          rightSectionWidth={48}
          style={{ flex: 1 }}
          disabled={!coin}
        />
        <Button variant="light" onClick={onFillMax} disabled={!coin || !canFillMax}>
          MAX
        </Button>
      </Group>
      <TextInput
        label="Cost"
        description={side === 'buy' ? 'What you pay, fee included' : 'What you receive, after the fee'}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        value={costShown}
        onFocus={() => onHold('cost', costShown)}
        onBlur={onRelease}
        onChange={(event) =>
          onAmountChange({ source: 'cost', text: cleanDecimalInput(event.currentTarget.value, COST_PLACES) })
        }
        rightSection={
          <Text size="xs" c="dimmed">
            {fiatCode}
          </Text>
        }
        rightSectionWidth={48}
        disabled={!coin}
      />
    </>
  );
}
