import { TERM_DEPOSIT_TEXTS, type TermDepositTransaction } from '@florin/contracts';
import { Badge, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { COIN_DECIMALS, formatDecimal } from '../../../lib/format';
import { formatDay } from './format-day';

type HistoryTableProps = {
  rows: readonly TermDepositTransaction[];
  hasMore: boolean;
  isLoadingMore: boolean;
  onViewMore: () => void;
};

function amount(value: string, row: TermDepositTransaction): string {
  return `${formatDecimal(value, COIN_DECIMALS) ?? value} ${row.coin_id.toUpperCase()}`;
}

/** Spec 002 section 4: is_active true shows Live; false shows Expired. */
function StatusBadge({ row }: { row: TermDepositTransaction }) {
  return (
    <Badge color={row.is_active ? 'teal' : 'gray'} variant="light">
      {row.is_active ? TERM_DEPOSIT_TEXTS.live : TERM_DEPOSIT_TEXTS.expired}
    </Badge>
  );
}

const COLUMNS = [
  'Coin',
  'Amount',
  'Rate',
  'Start Date',
  'End Date',
  'Deposit Return',
  'Deposit Balance',
  'Term Deposit',
  'Status',
] as const;

function cells(row: TermDepositTransaction): string[] {
  return [
    row.coin_id.toUpperCase(),
    amount(row.amount, row),
    `${row.rate}%`,
    formatDay(row.start_day),
    formatDay(row.end_day),
    amount(row.deposit_return, row),
    amount(row.total_balance_amount, row),
    `${row.term_days} days`,
  ];
}

/** Spec 002 section 2.6: the customer's deposits, 3 at a time with View More; cards below 768 px. */
export function HistoryTable({ rows, hasMore, isLoadingMore, onViewMore }: HistoryTableProps) {
  const isNarrow = useMediaQuery('(max-width: 767.98px)') ?? false;
  if (rows.length === 0) return <Text c="dimmed">{TERM_DEPOSIT_TEXTS.noDeposits}</Text>;

  const more = hasMore ? (
    <Group justify="center">
      <Button variant="light" onClick={onViewMore} loading={isLoadingMore}>
        {TERM_DEPOSIT_TEXTS.viewMore}
      </Button>
    </Group>
  ) : null;

  if (isNarrow) {
    return (
      <Stack gap="sm">
        <Stack gap="sm" role="list" aria-label={TERM_DEPOSIT_TEXTS.historyTitle}>
          {rows.map((row) => (
            <Card key={row.id} withBorder padding="sm" role="listitem">
              <Group justify="space-between" mb={4}>
                <Text fw={600}>{amount(row.amount, row)}</Text>
                <StatusBadge row={row} />
              </Group>
              {cells(row)
                .map((value, index) => [COLUMNS[index], value] as const)
                .slice(2)
                .map(([label, value]) => (
                  <Group key={label} justify="space-between" gap="md">
                    <Text size="sm" c="dimmed">
                      {label}
                    </Text>
                    <Text size="sm" ff="monospace">
                      {value}
                    </Text>
                  </Group>
                ))}
            </Card>
          ))}
        </Stack>
        {more}
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" aria-label={TERM_DEPOSIT_TEXTS.historyTitle}>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                {cells(row).map((value, index) => (
                  <Table.Td key={COLUMNS[index]} ff={index === 1 || index >= 5 ? 'monospace' : undefined}>
                    {value}
                  </Table.Td>
                ))}
                <Table.Td>
                  <StatusBadge row={row} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more}
    </Stack>
  );
}
