import type { AdminCryptoWithdrawal, CryptoWithdrawalStatus } from '@florin/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  type MantineColor,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { reportError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { customerPath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { ReasonModal } from '../compliance/components/reason-modal';
import { CRYPTO_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import {
  useApproveCryptoPayout,
  useConfirmCryptoPayout,
  useDownloadSigningRequest,
  useRejectCryptoPayout,
  useSendCryptoPayout,
} from './api/decide-crypto-withdrawal';
import { useCryptoPayoutQueue } from './api/list-crypto-payouts';
import { SendColdStorageModal } from './components/send-cold-storage-modal';
import {
  approvalsOf,
  PAYOUT_FILTERS,
  payoutActionsFor,
  payoutFilterOf,
  walletHeldAtOf,
  walletOwnerOf,
} from './payout-details';
import { LabelledValue } from '../components/labelled-value';

const STATUS_COLORS: Partial<Record<CryptoWithdrawalStatus, MantineColor>> = {
  pending: 'yellow',
  approved: 'blue',
  sent: 'indigo',
  confirmed: 'teal',
  rejected: 'red',
};

/** Coins show exactly as the server gives them (the asset's scale): staff check every digit. */
function coins(value: string, asset: string): string {
  return `${value} ${asset}`;
}

type EntryActions = {
  onApprove: (withdrawal: AdminCryptoWithdrawal) => void;
  onExport: (withdrawal: AdminCryptoWithdrawal) => void;
  onSend: (withdrawal: AdminCryptoWithdrawal) => void;
  onConfirm: (withdrawal: AdminCryptoWithdrawal) => void;
  onReject: (withdrawal: AdminCryptoWithdrawal) => void;
  isExporting: boolean;
};

function CryptoPayoutEntry({
  withdrawal,
  actions,
}: {
  withdrawal: AdminCryptoWithdrawal;
  actions: EntryActions;
}) {
  const isColdStorage = withdrawal.wallet === 'cold_storage';
  const allowed = payoutActionsFor(withdrawal);
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`Withdrawal of ${coins(withdrawal.amount, withdrawal.asset)} by ${withdrawal.customer_name}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0}>
            <Group gap={6}>
              <Text fw={700}>
                <Anchor component={Link} to={customerPath(withdrawal.user_id)} inherit>
                  {withdrawal.customer_name}
                </Anchor>{' '}
                <Text span size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  · {withdrawal.user_identification} · {withdrawal.email}
                </Text>
              </Text>
              {withdrawal.customer_on_hold && (
                <Badge color="red" variant="filled">
                  On hold
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              Asked {formatDateTime(withdrawal.created_at)}
            </Text>
          </Stack>
          <Group gap={6}>
            {withdrawal.needs_second_approval && (
              <Badge color="orange" variant="light">
                Needs second approval
              </Badge>
            )}
            <Badge color={STATUS_COLORS[withdrawal.status] ?? 'gray'} variant="light">
              {withdrawal.status_label}
            </Badge>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs">
          <LabelledValue label="Coin">{withdrawal.asset}</LabelledValue>
          <LabelledValue label="Amount (debited)">{coins(withdrawal.amount, withdrawal.asset)}</LabelledValue>
          <LabelledValue label="Fee">{coins(withdrawal.fee, withdrawal.asset)}</LabelledValue>
          <LabelledValue label="To send">{coins(withdrawal.amount_receive, withdrawal.asset)}</LabelledValue>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          <LabelledValue label="Address">
            <Text span ff="monospace" size="sm">
              {withdrawal.address}
            </Text>
          </LabelledValue>
          {withdrawal.tag !== null && (
            <LabelledValue label="Destination tag">
              <Text span ff="monospace" size="sm">
                {withdrawal.tag}
              </Text>
            </LabelledValue>
          )}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs">
          <LabelledValue label="Wallet owner">{walletOwnerOf(withdrawal)}</LabelledValue>
          <LabelledValue label="Held at">{walletHeldAtOf(withdrawal)}</LabelledValue>
          <LabelledValue label="Whitelisted address">{withdrawal.whitelisted ? 'Yes' : 'No'}</LabelledValue>
          <LabelledValue label="Approvals">{approvalsOf(withdrawal)}</LabelledValue>
          <LabelledValue label="Sent from">
            {isColdStorage ? 'Cold storage' : 'Hot wallet (simulated chain)'}
          </LabelledValue>
          {withdrawal.sent_by && <LabelledValue label="Sent by">{withdrawal.sent_by}</LabelledValue>}
          {withdrawal.sent_at && (
            <LabelledValue label="Sent at">{formatDateTime(withdrawal.sent_at)}</LabelledValue>
          )}
        </SimpleGrid>
        {withdrawal.txid && (
          <LabelledValue label="Transaction id">
            <Text span ff="monospace" size="sm">
              {withdrawal.txid}
            </Text>
          </LabelledValue>
        )}
        {withdrawal.reject_reason && (
          <LabelledValue label="Reason for rejection">{withdrawal.reject_reason}</LabelledValue>
        )}
        {allowed.length > 0 && (
          <Group gap="xs" justify="flex-end">
            {allowed.includes('approve') && (
              <Button size="compact-sm" variant="light" onClick={() => actions.onApprove(withdrawal)}>
                Approve
              </Button>
            )}
            {allowed.includes('export') && (
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => actions.onExport(withdrawal)}
                loading={actions.isExporting}
              >
                Export signing request
              </Button>
            )}
            {allowed.includes('send') && (
              <Button size="compact-sm" color="teal" onClick={() => actions.onSend(withdrawal)}>
                Send
              </Button>
            )}
            {allowed.includes('confirm') && (
              <Button size="compact-sm" color="teal" onClick={() => actions.onConfirm(withdrawal)}>
                Confirm
              </Button>
            )}
            {allowed.includes('reject') && (
              <Button size="compact-sm" variant="default" onClick={() => actions.onReject(withdrawal)}>
                Reject
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** `/admin/crypto-payouts` (finance): customers' crypto withdrawals to approve, send, confirm or reject. */
export function CryptoWithdrawalsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, CRYPTO_SCREEN_ROLES)) return <AdminNotFound />;
  return <CryptoWithdrawalsScreen />;
}

function CryptoWithdrawalsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = payoutFilterOf(searchParams.get('status'));
  const queue = useCryptoPayoutQueue(filter);
  const approve = useApproveCryptoPayout();
  const send = useSendCryptoPayout();
  const confirm = useConfirmCryptoPayout();
  const reject = useRejectCryptoPayout();
  const exportRequest = useDownloadSigningRequest();
  const [sendingCold, setSendingCold] = useState<AdminCryptoWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminCryptoWithdrawal | null>(null);
  const withdrawals = queue.data?.pages.flatMap((page) => page.data) ?? [];
  const filterLabel = PAYOUT_FILTERS.find((entry) => entry.value === filter)?.label ?? '';

  const handleApprove = (withdrawal: AdminCryptoWithdrawal) =>
    modals.openConfirmModal({
      title: 'Approve withdrawal',
      centered: true,
      children: (
        <Text size="sm">
          Approve {coins(withdrawal.amount_receive, withdrawal.asset)} to {withdrawal.address}?
          {withdrawal.needs_second_approval &&
            ' It is over the daily limit: two staff members must approve it.'}
        </Text>
      ),
      labels: { confirm: 'Approve', cancel: 'Cancel' },
      onConfirm: () =>
        approve.mutate(withdrawal.id, {
          onSuccess: ({ message }) => showSuccessToast({ title: 'Approved', message }),
        }),
    });

  const handleSend = (withdrawal: AdminCryptoWithdrawal) => {
    if (withdrawal.wallet === 'cold_storage') {
      setSendingCold(withdrawal);
      return;
    }
    modals.openConfirmModal({
      title: 'Send withdrawal',
      centered: true,
      children: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Send {coins(withdrawal.amount_receive, withdrawal.asset)} to {withdrawal.address}
          {withdrawal.tag !== null ? ` (tag ${withdrawal.tag})` : ''} from the hot wallet? The customer’s
          balance is debited and they are told by e-mail. A sent transaction cannot be recalled.
        </Text>
      ),
      labels: { confirm: 'Send', cancel: 'Cancel' },
      confirmProps: { color: 'teal' },
      onConfirm: () =>
        send.mutate(
          { id: withdrawal.id },
          {
            onSuccess: ({ message }) => showSuccessToast({ title: 'Sent', message }),
            onError: (failure) => reportError(failure, { title: 'Not sent' }),
          },
        ),
    });
  };

  const handleConfirm = (withdrawal: AdminCryptoWithdrawal) =>
    modals.openConfirmModal({
      title: 'Confirm withdrawal',
      centered: true,
      children: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Has transaction {withdrawal.txid ?? ''} reached its confirmations on the chain? The customer sees
          the withdrawal completed.
        </Text>
      ),
      labels: { confirm: 'Confirm', cancel: 'Cancel' },
      confirmProps: { color: 'teal' },
      onConfirm: () =>
        confirm.mutate(withdrawal.id, {
          onSuccess: ({ message }) => showSuccessToast({ title: 'Confirmed', message }),
        }),
    });

  const handleExport = (withdrawal: AdminCryptoWithdrawal) => exportRequest.mutate(withdrawal.id);

  return (
    <Stack gap="md" maw={1100}>
      <title>Crypto payouts · Florin back office</title>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            Crypto payouts
          </Title>
          <Text size="sm" c="dimmed">
            Customers’ crypto withdrawals, oldest first: approve, send, then confirm once the chain has it.
          </Text>
        </Stack>
        <NativeSelect
          label="Status"
          data={PAYOUT_FILTERS.map((entry) => ({ value: entry.value, label: entry.label }))}
          value={filter}
          onChange={(event) => {
            const value = payoutFilterOf(event.currentTarget.value);
            setSearchParams(value === 'open' ? {} : { status: value }, { replace: true });
          }}
        />
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {queue.isPending && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading the crypto withdrawals" />
          </Group>
        )}
        {queue.isError && !queue.data && (
          <Group justify="center" gap="sm" p="md">
            <Text c="dimmed">The crypto withdrawals could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void queue.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {queue.data && withdrawals.length === 0 && (
          <Text size="sm" c="dimmed" p="md">
            {filter === 'open'
              ? 'No crypto withdrawals are open.'
              : `No withdrawals are ${filterLabel.toLowerCase()}.`}
          </Text>
        )}
        {withdrawals.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label="Crypto withdrawals"
          >
            {withdrawals.map((withdrawal) => (
              <CryptoPayoutEntry
                key={withdrawal.id}
                withdrawal={withdrawal}
                actions={{
                  onApprove: handleApprove,
                  onExport: handleExport,
                  onSend: handleSend,
                  onConfirm: handleConfirm,
                  onReject: setRejecting,
                  isExporting: exportRequest.isPending && exportRequest.variables === withdrawal.id,
                }}
              />
            ))}
          </Stack>
        )}
        {queue.hasNextPage && (
          <Group justify="center" mt="sm">
            <Button
              variant="light"
              onClick={() => void queue.fetchNextPage()}
              loading={queue.isFetchingNextPage}
            >
              View More
            </Button>
          </Group>
        )}
      </Paper>
      <SendColdStorageModal withdrawal={sendingCold} onClose={() => setSendingCold(null)} />
      <ReasonModal
        opened={rejecting !== null}
        onClose={() => setRejecting(null)}
        title="Reject withdrawal"
        description={
          rejecting
            ? `The ${coins(rejecting.amount, rejecting.asset)} goes back to ${rejecting.customer_name}’s balance. They read the reason.`
            : ''
        }
        reasonLabel="Reason the customer reads"
        confirmLabel="Reject"
        color="red"
        isPending={reject.isPending}
        onSubmit={(reason) => reject.mutateAsync({ id: rejecting?.id ?? '', reason })}
        successTitle="Withdrawal rejected"
        errorTitle="Not rejected"
      />
    </Stack>
  );
}
