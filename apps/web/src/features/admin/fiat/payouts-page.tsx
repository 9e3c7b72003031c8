import type { AdminFiatWithdrawal, FiatCurrency } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import {
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
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { formatDateTime, formatDecimal, FIAT_DECIMALS } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { ReasonModal } from '../compliance/components/reason-modal';
import { FIAT_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useApprovePayout, useExportPayouts, useRejectPayout } from './api/decide-payout';
import { usePayoutQueue } from './api/list-payouts';
import { MarkPaidModal } from './components/mark-paid-modal';

function money(value: string, currency: string): string {
  return `${formatDecimal(value, FIAT_DECIMALS) ?? value} ${currency}`;
}

function BankLine({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

function PayoutEntry({
  withdrawal,
  onApprove,
  onPaid,
  onReject,
}: {
  withdrawal: AdminFiatWithdrawal;
  onApprove: (withdrawal: AdminFiatWithdrawal) => void;
  onPaid: (withdrawal: AdminFiatWithdrawal) => void;
  onReject: (withdrawal: AdminFiatWithdrawal) => void;
}) {
  const needsApproval = withdrawal.needs_second_approval && !withdrawal.approved_by;
  // Nothing moves it towards payment while compliance holds the account (the server refuses to pay it);
  // rejecting it stays possible.
  const isOnHold = withdrawal.customer_on_hold;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      aria-label={`Withdrawal of ${money(withdrawal.amount, withdrawal.currency)} by ${withdrawal.customer_name}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0}>
            <Group gap={6}>
              <Text fw={700}>
                {withdrawal.customer_name}{' '}
                <Text span size="sm" c="dimmed">
                  · {withdrawal.user_identification} · {withdrawal.email}
                </Text>
              </Text>
              {isOnHold && (
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
            {needsApproval && (
              <Badge color="orange" variant="light">
                Needs second approval
              </Badge>
            )}
            {withdrawal.approved_by && (
              <Badge color="blue" variant="light">
                Approved by {withdrawal.approved_by}
              </Badge>
            )}
            {withdrawal.exported_at && (
              <Badge color="gray" variant="light">
                In payout file {formatDateTime(withdrawal.exported_at)}
              </Badge>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs">
          <BankLine label="Amount (debited)" value={money(withdrawal.amount, withdrawal.currency)} />
          <BankLine label="Fee" value={money(withdrawal.fee, withdrawal.currency)} />
          <BankLine label="To pay" value={money(withdrawal.amount_receive, withdrawal.currency)} />
          <BankLine label="Account name" value={withdrawal.name_of_account} />
          <BankLine label="Sort code" value={withdrawal.sort_code} />
          <BankLine label="Account number" value={withdrawal.account_number} />
          <BankLine label="IBAN" value={withdrawal.iban} />
          <BankLine label="BIC" value={withdrawal.bic} />
        </SimpleGrid>
        <Group gap="xs" justify="flex-end">
          {needsApproval && (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => onApprove(withdrawal)}
              disabled={isOnHold}
            >
              Approve
            </Button>
          )}
          <Button
            size="compact-sm"
            color="teal"
            onClick={() => onPaid(withdrawal)}
            disabled={needsApproval || isOnHold}
          >
            Mark as paid
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => onReject(withdrawal)}>
            Reject
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** `/admin/payouts` (finance): open fiat withdrawals, oldest first, to pay, approve or reject; the payout file. */
export function PayoutsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, FIAT_SCREEN_ROLES)) return <AdminNotFound />;
  return <PayoutsScreen />;
}

function PayoutsScreen() {
  const queue = usePayoutQueue();
  const approve = useApprovePayout();
  const reject = useRejectPayout();
  const [paying, setPaying] = useState<AdminFiatWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminFiatWithdrawal | null>(null);
  const [exportCurrency, setExportCurrency] = useState<FiatCurrency>('GBP');
  const exportFile = useExportPayouts();
  const withdrawals = queue.data?.pages.flatMap((page) => page.data) ?? [];

  const handleApprove = (withdrawal: AdminFiatWithdrawal) =>
    modals.openConfirmModal({
      title: 'Approve withdrawal',
      centered: true,
      children: (
        <Text size="sm">
          Approve {money(withdrawal.amount, withdrawal.currency)} to {withdrawal.name_of_account}? Another
          staff member then marks it paid.
        </Text>
      ),
      labels: { confirm: 'Approve', cancel: 'Cancel' },
      onConfirm: () =>
        approve.mutate(withdrawal.id, {
          onSuccess: ({ message }) => showSuccessToast({ title: 'Approved', message }),
        }),
    });

  return (
    <Stack gap="md" maw={1100}>
      <title>Payouts · Florin back office</title>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            Payouts
          </Title>
          <Text size="sm" c="dimmed">
            Customers’ fiat withdrawals waiting to be paid, oldest first. Export a payout file (each
            withdrawal goes in one file, and its customer can no longer cancel it), pay it from the bank, then
            mark each withdrawal paid.
          </Text>
        </Stack>
        <Group gap="xs" align="flex-end">
          <NativeSelect
            label="Payout file"
            data={[...FIAT_CODES]}
            value={exportCurrency}
            onChange={(event) => setExportCurrency(event.currentTarget.value as FiatCurrency)}
          />
          <Button
            variant="light"
            loading={exportFile.isPending}
            onClick={() =>
              exportFile.mutate(exportCurrency, {
                onSuccess: ({ message }) => showSuccessToast({ title: 'Payout file', message }),
              })
            }
          >
            Export payout file
          </Button>
        </Group>
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {queue.isPending && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading the payouts" />
          </Group>
        )}
        {queue.isError && !queue.data && (
          <Group justify="center" gap="sm" p="md">
            <Text c="dimmed">The payouts could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void queue.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {queue.data && withdrawals.length === 0 && (
          <Text size="sm" c="dimmed" p="md">
            No withdrawals wait to be paid.
          </Text>
        )}
        {withdrawals.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label="Open withdrawals"
          >
            {withdrawals.map((withdrawal) => (
              <PayoutEntry
                key={withdrawal.id}
                withdrawal={withdrawal}
                onApprove={handleApprove}
                onPaid={setPaying}
                onReject={setRejecting}
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
      <MarkPaidModal withdrawal={paying} onClose={() => setPaying(null)} />
      <ReasonModal
        opened={rejecting !== null}
        onClose={() => setRejecting(null)}
        title="Reject withdrawal"
        description={
          rejecting
            ? `${rejecting.exported_at ? 'This withdrawal is in a payout file sent to the bank: reject it only if the bank has returned the payment. ' : ''}The ${money(rejecting.amount, rejecting.currency)} goes back to ${rejecting.customer_name}’s balance. They read the reason.`
            : ''
        }
        reasonLabel="Reason the customer reads"
        confirmLabel="Reject"
        color="red"
        isPending={reject.isPending}
        // In a payout file, Reject stays disabled until staff confirm the bank returned the payment.
        acknowledgement={rejecting?.exported_at ? 'The bank has returned this payment.' : undefined}
        onSubmit={(reason) =>
          reject.mutateAsync({
            id: rejecting?.id ?? '',
            reason,
            bankReturned: rejecting?.exported_at != null,
          })
        }
        successTitle="Withdrawal rejected"
        errorTitle="Not rejected"
      />
    </Stack>
  );
}
