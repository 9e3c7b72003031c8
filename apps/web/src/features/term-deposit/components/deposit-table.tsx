import { TERM_DEPOSIT_TEXTS, type TermDepositCoin, type TermDepositOption } from '@florin/contracts';
import {
  Accordion,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { COIN_DECIMALS, formatDecimal } from '../../../lib/format';
import { previewDeposit } from '../term-deposit-math';
import { formatDay } from './format-day';

/** What the customer typed and chose in one coin's row. */
export type RowInput = { amount: string; optionId: string | null };

type DepositTableProps = {
  coins: readonly TermDepositCoin[];
  inputs: Readonly<Record<string, RowInput>>;
  onAmountChange: (coin: TermDepositCoin, text: string) => void;
  onOptionChange: (coin: TermDepositCoin, optionId: string | null) => void;
  onTransfer: (coin: TermDepositCoin) => void;
  isSubmitting: boolean;
};

export function selectedOption(
  coin: TermDepositCoin,
  input: RowInput | undefined,
): TermDepositOption | undefined {
  const id = input?.optionId ?? String(coin.options[0]?.id ?? '');
  return coin.options.find((option) => String(option.id) === id);
}

function show(value: string | undefined, coin: TermDepositCoin): string {
  if (value === undefined) return '—';
  return `${formatDecimal(value, COIN_DECIMALS) ?? value} ${coin.coin_id.toUpperCase()}`;
}

/** The figures of one row: the earn and balance previews only when the amount is within the balance. */
function rowFigures(coin: TermDepositCoin, input: RowInput | undefined) {
  const option = selectedOption(coin, input);
  const preview = option
    ? previewDeposit(input?.amount ?? '', coin.balance, option.interest_rate, {
        coinId: coin.coin_id,
        scale: coin.scale,
      })
    : null;
  return { option, preview };
}

function AmountInput({
  coin,
  input,
  onAmountChange,
}: { coin: TermDepositCoin; input: RowInput | undefined } & Pick<DepositTableProps, 'onAmountChange'>) {
  return (
    <TextInput
      aria-label={`Amount ${coin.name}`}
      placeholder="0.00"
      inputMode="decimal"
      autoComplete="off"
      value={input?.amount ?? ''}
      onChange={(event) => onAmountChange(coin, event.currentTarget.value)}
      miw={120}
    />
  );
}

function DaysSelect({
  coin,
  input,
  onOptionChange,
}: { coin: TermDepositCoin; input: RowInput | undefined } & Pick<DepositTableProps, 'onOptionChange'>) {
  const option = selectedOption(coin, input);
  return (
    <Select
      aria-label={`Days ${coin.name}`}
      data={coin.options.map((entry) => ({ value: String(entry.id), label: `${entry.no_days} days` }))}
      value={option ? String(option.id) : null}
      onChange={(value) => onOptionChange(coin, value)}
      allowDeselect={false}
      disabled={coin.options.length === 0}
      placeholder={coin.options.length === 0 ? 'None offered' : undefined}
      miw={110}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * Spec 002 section 2.6: one row per coin with its balance, the amount, the
 * term, its rate and end date, the earn and balance previews and Transfer.
 * Below 990 px each coin becomes an expandable row.
 */
export function DepositTable(props: DepositTableProps) {
  const { coins, inputs, onTransfer, isSubmitting } = props;
  const isNarrow = useMediaQuery('(max-width: 989.98px)') ?? false;

  if (isNarrow) {
    return (
      <Accordion variant="separated" chevronPosition="right" aria-label="Coins to deposit">
        {coins.map((coin) => {
          const input = inputs[coin.coin_id];
          const { option, preview } = rowFigures(coin, input);
          return (
            <Accordion.Item key={coin.coin_id} value={coin.coin_id}>
              <Accordion.Control aria-label={`${coin.name} ${show(coin.balance, coin)}`}>
                <Group justify="space-between" wrap="nowrap" pr="sm">
                  <Text fw={600}>{coin.name}</Text>
                  <Text size="sm" ff="monospace">
                    {show(coin.balance, coin)}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  <AmountInput coin={coin} input={input} onAmountChange={props.onAmountChange} />
                  <DaysSelect coin={coin} input={input} onOptionChange={props.onOptionChange} />
                  <Figure label="Rate" value={option ? `${option.interest_rate}%` : '—'} />
                  <Figure label="Expiry" value={option ? formatDay(option.expiry) : '—'} />
                  <Figure label="Deposit Earn" value={show(preview?.earn, coin)} />
                  <Figure label="Deposit Balance" value={show(preview?.total, coin)} />
                  <Button
                    onClick={() => onTransfer(coin)}
                    disabled={isSubmitting || !option}
                    aria-label={`${TERM_DEPOSIT_TEXTS.transfer} ${coin.name}`}
                  >
                    {TERM_DEPOSIT_TEXTS.transfer}
                  </Button>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
    );
  }

  return (
    <Table.ScrollContainer minWidth={900}>
      {/* One line per figure: a balance or a date broken over two lines reads as two values. */}
      <Table
        verticalSpacing="sm"
        aria-label="Coins to deposit"
        styles={{ th: { whiteSpace: 'nowrap' }, td: { whiteSpace: 'nowrap' } }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Coin</Table.Th>
            <Table.Th>Balance</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Days</Table.Th>
            <Table.Th>Rate</Table.Th>
            <Table.Th>Expiry</Table.Th>
            <Table.Th>Deposit Earn</Table.Th>
            <Table.Th>Deposit Balance</Table.Th>
            <Table.Th>
              <VisuallyHidden>Action</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {coins.map((coin) => {
            const input = inputs[coin.coin_id];
            const { option, preview } = rowFigures(coin, input);
            return (
              <Table.Tr key={coin.coin_id}>
                <Table.Td fw={600}>{coin.name}</Table.Td>
                <Table.Td ff="monospace">{show(coin.balance, coin)}</Table.Td>
                <Table.Td>
                  <AmountInput coin={coin} input={input} onAmountChange={props.onAmountChange} />
                </Table.Td>
                <Table.Td>
                  <DaysSelect coin={coin} input={input} onOptionChange={props.onOptionChange} />
                </Table.Td>
                <Table.Td>{option ? `${option.interest_rate}%` : '—'}</Table.Td>
                <Table.Td>{option ? formatDay(option.expiry) : '—'}</Table.Td>
                <Table.Td ff="monospace">{show(preview?.earn, coin)}</Table.Td>
                <Table.Td ff="monospace">{show(preview?.total, coin)}</Table.Td>
                <Table.Td>
                  <Button
                    onClick={() => onTransfer(coin)}
                    disabled={isSubmitting || !option}
                    aria-label={`${TERM_DEPOSIT_TEXTS.transfer} ${coin.name}`}
                  >
                    {TERM_DEPOSIT_TEXTS.transfer}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ff="monospace">
        {value}
      </Text>
    </Group>
  );
}
