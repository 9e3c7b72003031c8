import type { AdminCryptoDeposit, CryptoDepositStatus } from '@florin/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  CopyButton,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  type MantineColor,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { customerPath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { AssignDepositModal } from '../components/assign-deposit-modal';
import { ReasonModal } from '../compliance/components/reason-modal';
import { CRYPTO_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useCryptoDeposits, type CryptoDepositFilter } from './api/list-crypto-deposits';
import { useAssignCryptoDeposit, useReturnCryptoDeposit } from './api/resolve-crypto-deposit';
import { SimulatedChainPanel } from './components/simulated-chain-panel';

/** Staff's words for a deposit's status: "Credited" where the customer reads "Completed". */
const STATUS_LABELS: Record<CryptoDepositStatus, string> = {
  pending: 'Pending',
  suspense: 'In review',
  credited: 'Credited',
  returned: 'Returned',
  dropped: 'Dropped',
};

const STATUS_COLORS: Record<CryptoDepositStatus, MantineColor> = {
  pending: 'yellow',
  suspense: 'orange',
  credited: 'teal',
  returned: 'gray',
  dropped: 'red',
};

const FILTER_ORDER: readonly CryptoDepositStatus[] = [
  'pending',
  'suspense',
  'credited',
  'returned',
  'dropped',
];

const FILTERS: readonly { value: CryptoDepositFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...FILTER_ORDER.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
];

function filterOf(value: string | null): CryptoDepositFilter {
  return FILTERS.find((filter) => filter.value === value)?.value ?? 'all';
}

/** Coins show exactly as the server gives them (the asset's scale): staff check every digit. */
function coins(value: string, asset: string): string {
  return `${value} ${asset}`;
}

/** The first and last characters of a long id or address; the whole one shows on hover. */
function shorten(value: string): string {
  return value.length > 18 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
}

function CopyText({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2_000}>
      {({ copied, copy }) => (
        <Button
          size="compact-xs"
          variant="subtle"
          color={copied ? 'teal' : 'gray'}
          onClick={copy}
          aria-label={copied ? `${label} copied` : `Copy ${label}`}
          style={{ flexShrink: 0 }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

// ---- the deposits ----

type DepositActions = {
  onAssign: (deposit: AdminCryptoDeposit) => void;
  onReturn: (deposit: AdminCryptoDeposit) => void;
};

function depositName(deposit: AdminCryptoDeposit): string {
  return `Deposit of ${coins(deposit.amount, deposit.asset)} in transaction ${deposit.txid}`;
}

function AddressAndTag({ deposit }: { deposit: AdminCryptoDeposit }) {
  return (
    <Stack gap={0}>
      <Tooltip label={deposit.address} withArrow>
        <Text span size="sm" ff="monospace" title={deposit.address} style={{ whiteSpace: 'nowrap' }}>
          {shorten(deposit.address)}
        </Text>
      </Tooltip>
      {deposit.asset === 'XRP' &&
        (deposit.tag === null ? (
          <Text size="xs" c="orange.8">
            No destination tag
          </Text>
        ) : (
          <Text size="xs">
            Tag{' '}
            <Text span ff="monospace" size="xs">
              {deposit.tag}
            </Text>
          </Text>
        ))}
    </Stack>
  );
}

function Txid({ txid }: { txid: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={txid} withArrow multiline maw={320} style={{ overflowWrap: 'anywhere' }}>
        <Text span size="sm" ff="monospace" title={txid} style={{ whiteSpace: 'nowrap' }}>
          {shorten(txid)}
        </Text>
      </Tooltip>
      <CopyText value={txid} label="transaction id" />
    </Group>
  );
}

function Customer({ deposit }: { deposit: AdminCryptoDeposit }) {
  if (deposit.user_id === null) return <>—</>;
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={customerPath(deposit.user_id)} size="sm">
        {deposit.customer_name ?? `Customer ${deposit.user_id}`}
      </Anchor>
      {deposit.user_identification && (
        <Text size="xs" c="dimmed">
          {deposit.user_identification}
        </Text>
      )}
    </Stack>
  );
}

function Status({ deposit }: { deposit: AdminCryptoDeposit }) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge
        color={STATUS_COLORS[deposit.status]}
        variant="light"
        style={{ flexShrink: 0, overflow: 'visible' }}
      >
        {STATUS_LABELS[deposit.status]}
      </Badge>
      {deposit.resolution_note && (
        <Text size="xs" c="dimmed" maw={220}>
          {deposit.resolution_note}
        </Text>
      )}
    </Stack>
  );
}

function Actions({ deposit, onAssign, onReturn }: { deposit: AdminCryptoDeposit } & DepositActions) {
  if (deposit.status !== 'suspense') return null;
  return (
    <Group gap={6} wrap="nowrap">
      <Button size="compact-sm" onClick={() => onAssign(deposit)}>
        Assign
      </Button>
      <Button size="compact-sm" variant="default" onClick={() => onReturn(deposit)}>
        Return
      </Button>
    </Group>
  );
}

function DepositsTable({ deposits, actions }: { deposits: AdminCryptoDeposit[]; actions: DepositActions }) {
  return (
    <Table verticalSpacing="xs" fz="sm" highlightOnHover aria-label="Crypto deposits">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Coin</Table.Th>
          <Table.Th>Amount</Table.Th>
          <Table.Th>Address and tag</Table.Th>
          <Table.Th>Transaction id</Table.Th>
          <Table.Th>Confirmations</Table.Th>
          <Table.Th>Customer</Table.Th>
          <Table.Th>Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {deposits.map((deposit) => (
          <Table.Tr key={deposit.id} aria-label={depositName(deposit)}>
            <Table.Td miw={100}>{formatDateTime(deposit.created_at)}</Table.Td>
            <Table.Td>{deposit.asset}</Table.Td>
            <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {deposit.amount}
            </Table.Td>
            <Table.Td>
              <AddressAndTag deposit={deposit} />
            </Table.Td>
            <Table.Td>
              <Txid txid={deposit.txid} />
            </Table.Td>
            <Table.Td>
              {deposit.confirmations}/{deposit.required_confirmations}
            </Table.Td>
            <Table.Td>
              <Customer deposit={deposit} />
            </Table.Td>
            <Table.Td miw={150}>
              <Stack gap={6} align="flex-start">
                <Status deposit={deposit} />
                <Actions deposit={deposit} {...actions} />
              </Stack>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Below the wide layout the columns would not fit: each deposit is a card with the same details. */
function DepositCards({ deposits, actions }: { deposits: AdminCryptoDeposit[]; actions: DepositActions }) {
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Crypto deposits">
      {deposits.map((deposit) => (
        <Paper
          key={deposit.id}
          component="li"
          withBorder
          radius="md"
          p="sm"
          aria-label={depositName(deposit)}
        >
          <Stack gap="xs">
            <Group justify="space-between" align="flex-start" gap="xs">
              <Stack gap={0}>
                <Text fw={700} ff="monospace">
                  {coins(deposit.amount, deposit.asset)}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(deposit.created_at)}
                </Text>
              </Stack>
              <Status deposit={deposit} />
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
              <Detail label="Address and tag">
                <AddressAndTag deposit={deposit} />
              </Detail>
              <Detail label="Transaction id">
                <Txid txid={deposit.txid} />
              </Detail>
            </SimpleGrid>
            <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
              <Detail label="Confirmations">
                {deposit.confirmations}/{deposit.required_confirmations}
              </Detail>
              <Detail label="Customer">
                <Customer deposit={deposit} />
              </Detail>
            </SimpleGrid>
            <Group justify="flex-end">
              <Actions deposit={deposit} {...actions} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function DepositsList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterOf(searchParams.get('status'));
  const deposits = useCryptoDeposits(filter);
  const returnDeposit = useReturnCryptoDeposit();
  const [assigning, setAssigning] = useState<AdminCryptoDeposit | null>(null);
  const assignDeposit = useAssignCryptoDeposit();
  const [returning, setReturning] = useState<AdminCryptoDeposit | null>(null);
  const rows = deposits.data?.pages.flatMap((page) => page.data) ?? [];
  const filterLabel = FILTERS.find((entry) => entry.value === filter)?.label ?? '';
  const actions: DepositActions = { onAssign: setAssigning, onReturn: setReturning };

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="deposits-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" gap="sm">
          <Group gap="xs">
            <Title order={2} fz={18} id="deposits-heading">
              Deposits
            </Title>
            {deposits.isFetching && !deposits.isPending && <Loader size="xs" aria-label="Updating" />}
          </Group>
          <NativeSelect
            label="Status"
            data={FILTERS.map((entry) => ({ value: entry.value, label: entry.label }))}
            value={filter}
            onChange={(event) => {
              const value = filterOf(event.currentTarget.value);
              setSearchParams(value === 'all' ? {} : { status: value }, { replace: true });
            }}
          />
        </Group>
        {deposits.isPending && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading the crypto deposits" />
          </Group>
        )}
        {deposits.isError && !deposits.data && (
          <Group justify="center" gap="sm" p="md">
            <Text c="dimmed">The crypto deposits could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void deposits.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {deposits.data && rows.length === 0 && (
          <Text size="sm" c="dimmed">
            {filter === 'all'
              ? 'No crypto deposits have been seen yet.'
              : filter === 'suspense'
                ? 'Nothing waits in review.'
                : `No deposits are ${filterLabel.toLowerCase()}.`}
          </Text>
        )}
        {rows.length > 0 && (
          <>
            <Box visibleFrom="lg">
              <Table.ScrollContainer minWidth={880}>
                <DepositsTable deposits={rows} actions={actions} />
              </Table.ScrollContainer>
            </Box>
            <Box hiddenFrom="lg">
              <DepositCards deposits={rows} actions={actions} />
            </Box>
          </>
        )}
        {deposits.hasNextPage && (
          <Group justify="center">
            <Button
              variant="light"
              onClick={() => void deposits.fetchNextPage()}
              loading={deposits.isFetchingNextPage}
            >
              View More
            </Button>
          </Group>
        )}
      </Stack>
      <AssignDepositModal
        depositId={assigning?.id ?? null}
        summary={
          assigning && (
            <>
              Credit {coins(assigning.amount, assigning.asset)} (transaction {assigning.txid}
              {assigning.tag === null ? ', no destination tag' : `, tag ${assigning.tag}`}) to a customer.
              Check with the customer that they sent it first.
            </>
          )
        }
        assign={assignDeposit}
        successTitle="Deposit assigned"
        onClose={() => setAssigning(null)}
      />
      <ReasonModal
        opened={returning !== null}
        onClose={() => setReturning(null)}
        title="Return the deposit"
        description={
          returning
            ? `Mark ${coins(returning.amount, returning.asset)} (transaction ${returning.txid}) as sent back to its sender from cold storage. Nothing is credited.`
            : ''
        }
        confirmLabel="Mark as returned"
        color="red"
        isPending={returnDeposit.isPending}
        onSubmit={(reason) => returnDeposit.mutateAsync({ id: returning?.id ?? '', reason })}
        successTitle="Deposit returned"
        errorTitle="Not returned"
      />
    </Paper>
  );
}

/**
 * `/admin/crypto-deposits` (finance): every deposit the chain watcher has
 * seen, the XRP suspense list (payments to the house address without a
 * known destination tag, DECISIONS.md) and, outside production, the
 * simulated chain's tools.
 */
export function CryptoDepositsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, CRYPTO_SCREEN_ROLES)) return <AdminNotFound />;
  return (
    <Stack gap="md" maw={1200}>
      <title>Crypto deposits · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Crypto deposits
        </Title>
        <Text size="sm" c="dimmed">
          Payments seen on the chains, newest first. Each is credited after its confirmations.
        </Text>
      </Stack>
      <Alert color="blue" variant="light">
        An XRP payment to the house address without a known destination tag waits in review: find out who sent
        it before you assign it, or return it to the sender.
      </Alert>
      <DepositsList />
      {me.simulated_chain && <SimulatedChainPanel />}
    </Stack>
  );
}
