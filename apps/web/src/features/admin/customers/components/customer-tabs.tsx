import { INVESTOR_TEXTS, type InvestorJourney } from '@florin/contracts';
import { Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime } from '../../../../lib/format';
import { useCustomerBalances } from '../api/get-balances';
import { useCustomerLedger } from '../api/get-ledger';
import { investorEvidenceUrl, useInvestorEvidence } from '../api/get-investor-evidence';
import { useCustomerSessions } from '../api/get-sessions';
import { PageControls } from '../../components/paged-results';

export function Loading({ label }: { label: string }) {
  return (
    <Group justify="center" p="xl">
      <Loader aria-label={label} />
    </Group>
  );
}

export function Failed({ what }: { what: string }) {
  return (
    <Text c="dimmed" p="md">
      {what} could not be loaded. Reload the page to try again.
    </Text>
  );
}

export function BalancesTab({ userId }: { userId: number }) {
  const { data, isError } = useCustomerBalances(userId);
  if (!data) return isError ? <Failed what="The balances" /> : <Loading label="Loading balances" />;
  if (data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No money has moved for this customer yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Balances" verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Asset</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th ta="right">Held</Table.Th>
            <Table.Th ta="right">Available</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((balance) => (
            <Table.Tr key={`${balance.asset}:${balance.kind}`}>
              <Table.Td fw={600}>{balance.asset}</Table.Td>
              <Table.Td>{balance.kind}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {balance.posted}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {balance.held}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {balance.available}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function HistoryTab({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const { data, isError } = useCustomerLedger(userId, page);
  if (!data) return isError ? <Failed what="The history" /> : <Loading label="Loading the history" />;
  if (data.total === 0) {
    return (
      <Text size="sm" c="dimmed">
        No ledger entries yet.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={820}>
        <Table aria-label="Ledger history" verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Movement</Table.Th>
              <Table.Th>Asset</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Balance after</Table.Th>
              <Table.Th>Journal</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.data.map((line) => (
              <Table.Tr key={line.entry_id}>
                <Table.Td>{formatDateTime(line.created_at)}</Table.Td>
                <Table.Td>{line.kind.replaceAll('_', ' ')}</Table.Td>
                <Table.Td fw={600}>{line.asset}</Table.Td>
                <Table.Td>{line.account_kind}</Table.Td>
                <Table.Td ta="right" ff="monospace" c={line.amount.startsWith('-') ? 'red' : 'teal'}>
                  {line.amount}
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {line.balance_after ?? '—'}
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    #{line.journal_id}
                    {line.reference ? ` · ${line.reference}` : ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageControls page={data} onPage={setPage} />
    </Stack>
  );
}

export function SessionsTab({ userId }: { userId: number }) {
  const { data, isError } = useCustomerSessions(userId);
  if (!data) return isError ? <Failed what="The sessions" /> : <Loading label="Loading sessions" />;
  if (data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No session is open.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Active sessions" verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>Signed in</Table.Th>
            <Table.Th>IP address</Table.Th>
            <Table.Th>Browser</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((session) => (
            <Table.Tr key={session.id}>
              <Table.Td>{formatDateTime(session.last_seen_at)}</Table.Td>
              <Table.Td>{formatDateTime(session.created_at)}</Table.Td>
              <Table.Td ff="monospace">{session.ip ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="xs" lineClamp={2}>
                  {session.user_agent ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const JOURNEY_STEP_LABELS: Record<InvestorJourney['step'], string> = {
  categorisation: 'Not categorised',
  assessment: 'Assessment not passed',
  cooling_off: 'In the cooling-off period',
  confirm: 'Cooling-off over, not confirmed',
  complete: 'Complete',
};

/** What an evidence row's details say, as short lines: the statement, figures and scores compliance reads. */
function detailLines(details: Record<string, unknown>): string[] {
  return Object.entries(details)
    .filter(([key]) => key !== 'answers' && key !== 'questions')
    .map(
      ([key, value]) =>
        `${key.replaceAll('_', ' ')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    );
}

export function InvestorEvidenceTab({ userId }: { userId: number }) {
  const { data, isError } = useInvestorEvidence(userId);
  if (!data) return isError ? <Failed what="The evidence" /> : <Loading label="Loading the evidence" />;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {INVESTOR_TEXTS.evidenceHeading}
          </Title>
          <Text size="sm">
            {JOURNEY_STEP_LABELS[data.journey.step]}
            {data.journey.category ? ` · ${data.journey.category.replaceAll('_', ' ')}` : ''}
          </Text>
        </Stack>
        <Button component="a" href={investorEvidenceUrl(userId)} download variant="default">
          {INVESTOR_TEXTS.evidenceExport}
        </Button>
      </Group>
      {data.events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {INVESTOR_TEXTS.evidenceEmpty}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Investor journey evidence" verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Step</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>IP address</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.events.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{formatDateTime(event.created_at)}</Table.Td>
                  <Table.Td>{event.step.replaceAll('_', ' ')}</Table.Td>
                  <Table.Td>
                    {detailLines(event.details).map((line) => (
                      <Text key={line} size="xs">
                        {line}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td ff="monospace">{event.ip ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
