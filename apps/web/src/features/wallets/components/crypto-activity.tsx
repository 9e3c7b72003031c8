import type { CoinId, CryptoActivity as CryptoActivityItem } from '@florin/contracts';
import { Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { COIN_DECIMALS, formatDateTime, formatDecimal } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { useCancelCryptoWithdrawal } from '../api/cancel-crypto-withdrawal';
import { useCryptoActivity } from '../api/list-crypto-activity';

const STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  awaiting_code: 'yellow',
  verified: 'yellow',
  approved: 'yellow',
  sent: 'blue',
  suspense: 'yellow',
  credited: 'teal',
  confirmed: 'teal',
  rejected: 'red',
  dropped: 'gray',
  cancelled: 'gray',
  expired: 'gray',
  returned: 'gray',
};

function isZero(value: string): boolean {
  return /^0+(\.0+)?$/.test(value);
}

/** "bc1qar0s…5mdq": enough of an address to recognise it on a phone. */
function shortAddress(address: string): string {
  return address.length > 16 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

function ActivityRow({
  item,
  onCancel,
}: {
  item: CryptoActivityItem;
  onCancel: (item: CryptoActivityItem) => void;
}) {
  const code = item.coin_id.toUpperCase();
  const isWithdrawal = item.type === 'withdrawal';
  const label = isWithdrawal ? 'Withdrawal' : 'Deposit';
  const amount = `${isWithdrawal ? '-' : '+'}${formatDecimal(item.amount, COIN_DECIMALS) ?? item.amount} ${code}`;
  const isCounting =
    !isWithdrawal &&
    item.status === 'pending' &&
    item.confirmations !== null &&
    item.required_confirmations !== null;
  const progress = isCounting ? `${item.confirmations}/${item.required_confirmations} confirmations` : null;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`${label} ${amount} ${item.status_label}${progress ? ` ${progress}` : ''}`}
    >
      <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600}>{label}</Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.created_at)}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" title={item.address}>
            {isWithdrawal ? 'To' : 'To your address'} {shortAddress(item.address)}
          </Text>
          {progress && (
            <Text size="xs" fw={600} c="yellow.9">
              {progress}
            </Text>
          )}
          {item.withdrawal?.reject_reason && (
            <Text size="xs" c="red.8">
              Reason: {item.withdrawal.reject_reason}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end" style={{ flex: '1 1 auto' }}>
          <Stack gap={0} align="flex-end" style={{ flex: '1 0 auto' }}>
            <Text fw={600} ff="monospace" c={isWithdrawal ? undefined : 'teal.8'}>
              {amount}
            </Text>
            {isWithdrawal && !isZero(item.fee) && (
              <Text size="xs" c="dimmed">
                Fee {formatDecimal(item.fee, COIN_DECIMALS)} {code}
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
 * The activity list under the tabs (spec 001 section 2) for a coin: deposits
 * still counting confirmations ("5/6 confirmations") and credited, and
 * withdrawals with their state; one staff have not approved yet can be
 * cancelled, which releases the coins held for it.
 */
export function CryptoActivity({ coin }: { coin: CoinId }) {
  const activity = useCryptoActivity(coin);
  const cancel = useCancelCryptoWithdrawal();
  const items = activity.data?.pages.flatMap((page) => page.data) ?? [];
  const code = coin.toUpperCase();

  const handleCancel = (item: CryptoActivityItem) => {
    const withdrawal = item.withdrawal;
    if (!withdrawal) return;
    modals.openConfirmModal({
      title: 'Cancel withdrawal',
      centered: true,
      children: (
        <Text size="sm">
          Cancel your withdrawal of {formatDecimal(withdrawal.amount, COIN_DECIMALS)} {code}? The coins go
          back to your balance.
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
      aria-labelledby="crypto-activity-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz={{ base: 18, sm: 20 }} id="crypto-activity-heading">
            {code} activity
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
            No {code} deposits or withdrawals yet.
          </Text>
        )}
        {items.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label={`${code} activity`}
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
