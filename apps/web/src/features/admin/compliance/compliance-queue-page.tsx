import { COMPLIANCE_ROLES, type QueueItem } from '@florin/contracts';
import { Anchor, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { complianceCasePath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { mayOpen, useSignedInStaff } from '../staff-access';
import { useComplianceQueue } from './api/list-queue';
import { PagedResults } from '../components/paged-results';

function pageFrom(searchParams: URLSearchParams): number {
  const page = Number(searchParams.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function DocumentCounts({ item }: { item: QueueItem }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color="yellow" variant="light" title="Awaiting review">
        {item.pending_documents} pending
      </Badge>
      {item.approved_documents > 0 && (
        <Badge color="teal" variant="light">
          {item.approved_documents} approved
        </Badge>
      )}
      {item.declined_documents > 0 && (
        <Badge color="red" variant="light">
          {item.declined_documents} declined
        </Badge>
      )}
    </Group>
  );
}

function QueueTable({ items }: { items: QueueItem[] }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Compliance queue">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Customer</Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th>Waiting since</Table.Th>
            <Table.Th>Documents</Table.Th>
            <Table.Th>Next step</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Anchor component={Link} to={complianceCasePath(item.id)} fw={600} size="sm">
                  {item.first_name} {item.last_name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {item.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {item.user_identification}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.account_type ?? '—'}</Text>
                {item.block_status === 2 && (
                  <Badge color="red" size="xs">
                    On hold
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(item.waiting_since)}</Text>
              </Table.Td>
              <Table.Td>
                <DocumentCounts item={item} />
              </Table.Td>
              <Table.Td>
                {item.stage === 'ready' ? (
                  <Badge color="teal">Ready to go live</Badge>
                ) : (
                  <Text size="sm">
                    {item.verification_completed ? 'Review documents' : 'Review (wizard not finished)'}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `/admin/compliance` (compliance): customers waiting for a decision, oldest first. */
export function ComplianceQueuePage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, COMPLIANCE_ROLES)) return <AdminNotFound />;
  return <QueueScreen />;
}

function QueueScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams);
  const { data, isError, isFetching } = useComplianceQueue(page);

  return (
    <Stack gap="md" maw={1200}>
      <title>Compliance · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Compliance queue
        </Title>
        <Text size="sm" c="dimmed">
          Customers with documents awaiting review, and verified customers ready to go live. Oldest waiting
          first.
        </Text>
      </Stack>
      <PagedResults
        data={data}
        isError={isError}
        isFetching={isFetching}
        texts={{
          error: 'The queue could not be loaded. Reload the page to try again.',
          loading: 'Loading the queue',
          empty: 'Nobody is waiting. Well done.',
        }}
        countText={(total) => (total === 1 ? '1 customer waiting' : `${total} customers waiting`)}
        onPage={(next) => setSearchParams({ page: String(next) })}
      >
        {(items) => <QueueTable items={items} />}
      </PagedResults>
    </Stack>
  );
}
