import {
  exportHistoryPath,
  HISTORY_CSV_FILENAME,
  HISTORY_FILTERS,
  type HistoryFilter,
  type Transaction,
} from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import {
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { COIN_DECIMALS, FIAT_DECIMALS, formatDateTime, formatDecimal, formatPounds } from '../lib/format';
import { historyQuery, pendingTransactionsQuery } from '../lib/portfolio';

/** The filter options in the spec's order (001 section 2); All is no filter. */
const FILTER_OPTIONS: readonly { label: string; value: HistoryFilter | 'all' }[] = [
  ...HISTORY_FILTERS.map((value) => ({ label: value[0]!.toUpperCase() + value.slice(1), value })),
  { label: 'All', value: 'all' },
];

const FIATS: readonly string[] = FIAT_CODES;

function isFiat(code: string): boolean {
  return FIATS.includes(code.toUpperCase());
}

/** Coins to 5 decimals, cash to 2 (spec 001 section 9). */
export function formatTransactionAmount(
  transaction: Pick<Transaction, 'amount' | 'coin_symbol' | 'direction'>,
): string {
  const places = isFiat(transaction.coin_symbol) ? FIAT_DECIMALS : COIN_DECIMALS;
  // Money out carries a minus, as in the exported file.
  const sign = transaction.direction === 'out' ? '-' : '';
  return `${sign}${formatDecimal(transaction.amount, places) ?? transaction.amount} ${transaction.coin_symbol.toUpperCase()}`;
}

function gbpValueText(transaction: Transaction): string {
  return transaction.gbp_amount === null ? '—' : (formatPounds(transaction.gbp_amount) ?? '—');
}

/** A pending withdrawal's status stands out; a completed movement's is quiet. */
function StatusText({ transaction, size = 'sm' }: { transaction: Transaction; size?: 'xs' | 'sm' }) {
  return (
    <Text
      span
      size={size}
      fw={transaction.status === 'pending' ? 600 : undefined}
      c={transaction.status === 'pending' ? 'orange.8' : 'dimmed'}
    >
      {transaction.status_label}
    </Text>
  );
}

function ActivityTable({ transactions }: { transactions: readonly Transaction[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" aria-label="Recent activity" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Asset</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Value (GBP)</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {transactions.map((transaction) => (
            <Table.Tr key={transaction.id}>
              <Table.Td>{formatDateTime(transaction.created_at) ?? transaction.created_at}</Table.Td>
              <Table.Td>{transaction.label}</Table.Td>
              <Table.Td>{transaction.coin_symbol.toUpperCase()}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatTransactionAmount(transaction)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {gbpValueText(transaction)}
              </Table.Td>
              <Table.Td>
                <StatusText transaction={transaction} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone: one line pair per transaction instead of a table wider than the screen. */
function ActivityList({ transactions }: { transactions: readonly Transaction[] }) {
  return (
    <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Recent activity">
      {transactions.map((transaction) => (
        <Box
          key={transaction.id}
          component="li"
          py="xs"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" fw={600}>
              {transaction.label} · {transaction.coin_symbol.toUpperCase()}
            </Text>
            <Text size="sm" ff="monospace">
              {formatTransactionAmount(transaction)}
            </Text>
          </Group>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="xs" c="dimmed">
              {formatDateTime(transaction.created_at) ?? transaction.created_at} ·{' '}
              <StatusText transaction={transaction} size="xs" />
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {gbpValueText(transaction)}
            </Text>
          </Group>
        </Box>
      ))}
    </Stack>
  );
}

type RecentActivityProps = {
  /** Only this asset's transactions (a wallet's own list); every asset when absent. */
  coinId?: string;
  title?: string;
};

/**
 * The Recent Activity / transaction history list (spec 001 section 2):
 * filters Buy, Sell, Deposit, Withdraw, All; View More appends the next
 * page; Export downloads `Crypto History.csv`. Pending withdrawals come
 * first, each with its status (issue 41). Whoever shows it also calls
 * useLivePortfolio so it follows the customer's money.
 */
export function RecentActivity({ coinId, title = 'Recent Activity' }: RecentActivityProps) {
  const [filter, setFilter] = useState<HistoryFilter | 'all'>('all');
  const headingId = useId();
  const options = { filter: filter === 'all' ? undefined : filter, coinId };
  const history = useInfiniteQuery(historyQuery(options));
  // Withdrawals not yet paid or sent hold money but have no journal: they lead the list, with their status.
  const pending = useQuery(pendingTransactionsQuery(options));
  const transactions = [...(pending.data ?? []), ...(history.data?.pages.flatMap((page) => page.data) ?? [])];

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} fz={{ base: 18, sm: 20 }} id={headingId}>
            {title}
          </Title>
          <Button
            component="a"
            href={exportHistoryPath}
            download={HISTORY_CSV_FILENAME}
            variant="default"
            size="compact-sm"
          >
            Export
          </Button>
        </Group>
        <SegmentedControl
          aria-label="Filter transactions"
          data={FILTER_OPTIONS.map((option) => ({ label: option.label, value: option.value }))}
          value={filter}
          onChange={setFilter}
          size="xs"
          fullWidth
        />
        {history.isPending && (
          <Group justify="center" p="lg">
            <Loader size="sm" aria-label="Loading recent activity" />
          </Group>
        )}
        {history.isError && transactions.length === 0 && (
          <Stack align="center" gap="xs" p="md" role="alert">
            <Text size="sm">Recent activity could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void history.refetch()}>
              Try again
            </Button>
          </Stack>
        )}
        {history.isSuccess && transactions.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="md">
            No transactions to show.
          </Text>
        )}
        {transactions.length > 0 && (
          <>
            <Box visibleFrom="sm">
              <ActivityTable transactions={transactions} />
            </Box>
            <Box hiddenFrom="sm">
              <ActivityList transactions={transactions} />
            </Box>
          </>
        )}
        {history.hasNextPage && (
          <Group justify="center">
            <Button
              variant="subtle"
              onClick={() => void history.fetchNextPage()}
              loading={history.isFetchingNextPage}
            >
              View More
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
