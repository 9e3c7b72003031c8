import {
  AFFILIATE_CLAIM_STATUSES,
  type AdminAffiliateClaim,
  type AffiliateClaimStatus,
} from '@florin/contracts';
import {
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { formatDateTime, formatPounds } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { REFERRAL_CLAIMS_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useAffiliateClaims, useResolveAffiliateClaim } from './api/affiliate-claims';

const STATUS_LABELS: Record<AffiliateClaimStatus, string> = {
  waiting: 'Waiting to be paid',
  paid: 'Paid',
  rejected: 'Rejected',
};

/**
 * Referral earnings claims (issue 10): finance pays each to the bank account
 * it names, then marks it paid (the ledger moves it from the customer's
 * affiliate account to the bank), or rejects it (Unpaid again).
 */
export function ReferralClaimsPage() {
  const staff = useSignedInStaff();
  const [status, setStatus] = useState<AffiliateClaimStatus>('waiting');
  const claims = useAffiliateClaims(status);
  const resolve = useResolveAffiliateClaim();
  const [rejecting, setRejecting] = useState<AdminAffiliateClaim | null>(null);
  const [reason, setReason] = useState('');
  if (!mayOpen(staff.role, REFERRAL_CLAIMS_SCREEN_ROLES)) return <AdminNotFound />;

  // Paid cannot be undone (the ledger moves the money to the bank and the customer is told): asked first.
  const handlePaid = (claim: AdminAffiliateClaim) =>
    modals.openConfirmModal({
      title: 'Mark claim paid',
      centered: true,
      children: (
        <Text size="sm">
          Has the bank sent {formatPounds(claim.amount) ?? claim.amount} to {claim.name_of_account} (
          {claim.sort_code} · {claim.account_number})? The customer is told it is paid, and this cannot be
          undone.
        </Text>
      ),
      labels: { confirm: 'Mark paid', cancel: 'Cancel' },
      onConfirm: () =>
        resolve.mutate(
          { id: claim.id, outcome: 'paid' },
          {
            onSuccess: (answer) => showSuccessToast({ id: 'claim', title: 'Done', message: answer.message }),
          },
        ),
    });

  const handleReject = () => {
    if (!rejecting) return;
    resolve.mutate(
      { id: rejecting.id, outcome: 'rejected', reason: reason.trim() },
      {
        onSuccess: (answer) => {
          setRejecting(null);
          setReason('');
          showSuccessToast({ id: 'claim', title: 'Done', message: answer.message });
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        Referral claims
      </Title>
      <SegmentedControl
        value={status}
        onChange={(value) => setStatus(value)}
        data={AFFILIATE_CLAIM_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
        w="fit-content"
      />
      {!claims.data ? (
        <Skeleton h={120} />
      ) : claims.data.length === 0 ? (
        <Text c="dimmed">No claims.</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Referral claims">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Claimed</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Pay to</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {claims.data.map((claim) => (
                <Table.Tr key={claim.id}>
                  <Table.Td>{formatDateTime(claim.created_at)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{claim.name}</Text>
                    <Text size="xs" c="dimmed">
                      {claim.email}
                    </Text>
                    {claim.customer_on_hold && (
                      <Badge color="red" variant="filled" size="sm">
                        On hold
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{formatPounds(claim.amount) ?? claim.amount}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{claim.name_of_account}</Text>
                    <Text size="xs" c="dimmed">
                      {claim.sort_code} · {claim.account_number}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {claim.status === 'waiting' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          onClick={() => handlePaid(claim)}
                          loading={resolve.isPending}
                          // Paid only once compliance lifts the hold (the server refuses it meanwhile).
                          disabled={claim.customer_on_hold}
                        >
                          Mark paid
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="light"
                          color="red"
                          onClick={() => setRejecting(claim)}
                        >
                          Reject
                        </Button>
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {claim.status === 'paid' && claim.paid_at
                          ? `Paid ${formatDateTime(claim.paid_at)}`
                          : (claim.rejected_reason ?? STATUS_LABELS[claim.status])}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title="Reject the claim">
        <Stack>
          <TextInput
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <Button
            color="red"
            onClick={handleReject}
            disabled={reason.trim().length < 3}
            loading={resolve.isPending}
          >
            Reject
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
