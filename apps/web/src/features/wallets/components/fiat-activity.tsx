import type { FiatActivity as FiatActivityItem, FiatCurrency } from '@florin/contracts';
import { Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { formatDateTime, formatDecimal, FIAT_DECIMALS } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { useCancelWithdrawal } from '../api/cancel-withdrawal';
import { useFiatActivity } from '../api/list-fiat-activity';

const STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  approved: 'yellow',
  paid: 'teal',
  credited: 'teal',
  rejected: 'red',
  cancelled: 'gray',
  returned: 'gray',
};

function ActivityRow({
  item,
  onCancel,
}: {
  item: FiatActivityItem;
  onCancel: (item: FiatActivityItem) => void;
}) {
  const isWithdrawal = item.type === 'withdrawal';
  const sign = isWithdrawal ? '-' : '+';
  const label = isWithdrawal ? 'Withdrawal' : 'Deposit';
  const amount = `${sign}${formatDecimal(item.amount, FIAT_DECIMALS) ?? item.amount} ${item.currency}`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`${label} ${amount} ${item.status_label}`}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0}>
          <Text fw={600}>{label}</Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.created_at)}
          </Text>
          {item.withdrawal?.reject_reason && (
            <Text size="xs" c="red.8">
              Reason: {item.withdrawal.reject_reason}
            </Text>
          )}
        </Stack>
        <Group gap="sm" wrap="nowrap">
          <Stack gap={0} align="flex-end">
            <Text fw={600} ff="monospace" c={isWithdrawal ? undefined : 'teal.8'}>
              {amount}
            </Text>
            {isWithdrawal && item.fee !== '0' && !/^0+(\.0+)?$/.test(item.fee) && (
              <Text size="xs" c="dimmed">
                Fee {formatDecimal(item.fee, FIAT_DECIMALS)} {item.currency}
              </Text>
            )}
          </Stack>
          <Badge color={STATUS_COLORS[item.status] ?? 'gray'} variant="light">
            {item.status_label}
          </Badge>
          {item.withdrawal?.can_cancel && (
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => onCancel(item)}>
              Cancel
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * The activity list under the tabs (spec 001 section 2) for a fiat currency:
 * deposits credited and withdrawals with their state; a pending withdrawal
 * can be cancelled, which releases the money held for it.
 */
export function FiatActivity({ currency }: { currency: FiatCurrency }) {
  const activity = useFiatActivity(currency);
  const cancel = useCancelWithdrawal();
  const items = activity.data?.pages.flatMap((page) => page.data) ?? [];

  const handleCancel = (item: FiatActivityItem) => {
    const withdrawal = item.withdrawal;
    if (!withdrawal) return;
    modals.openConfirmModal({
      title: 'Cancel withdrawal',
      centered: true,
      children: (
        <Text size="sm">
          Cancel your withdrawal of {formatDecimal(withdrawal.amount, FIAT_DECIMALS)} {withdrawal.currency}?
          The money goes back to your balance.
        </Text>
      ),
      labels: { confirm: 'Cancel withdrawal', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        cancel.mutate(withdrawal.id, {
          onSuccess: ({ message }) => showSuccessToast({ title: 'Withdrawal cancelled', message }),
        }),
    });
  };

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="fiat-activity-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz={{ base: 18, sm: 20 }} id="fiat-activity-heading">
            {currency} activity
          </Title>
          {(activity.isFetching || cancel.isPending) && !activity.isPending && (
            <Loader size="xs" aria-label="Updating" />
          )}
        </Group>
        {activity.isPending && (
          <Group justify="center" p="md">
            <Loader aria-label="Loading your activity" />
          </Group>
        )}
        {activity.isError && !activity.data && (
          <Group justify="center" gap="sm" p="md" role="alert">
            <Text c="dimmed">Your activity could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void activity.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {activity.data && items.length === 0 && (
          <Text c="dimmed" size="sm">
            No {currency} deposits or withdrawals yet.
          </Text>
        )}
        {items.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label={`${currency} activity`}
          >
            {items.map((item) => (
              <ActivityRow key={item.id} item={item} onCancel={handleCancel} />
            ))}
          </Stack>
        )}
        {activity.hasNextPage && (
          <Group justify="center">
            <Button
              variant="light"
              onClick={() => void activity.fetchNextPage()}
              loading={activity.isFetchingNextPage}
            >
              View More
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
