import { COMPLIANCE_ROLES, type QueueItem } from '@florin/contracts';
import { Anchor, Badge, Group, Loader, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { complianceCasePath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { mayOpen, useSignedInStaff } from '../staff-access';
import { useComplianceQueue } from './api/list-queue';

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
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !data && (
          <Text c="dimmed" p="md">
            The queue could not be loaded. Reload the page to try again.
          </Text>
        )}
        {!isError && !data && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading the queue" />
          </Group>
        )}
        {data && data.data.length === 0 && (
          <Text c="dimmed" p="md">
            Nobody is waiting. Well done.
          </Text>
        )}
        {data && data.data.length > 0 && <QueueTable items={data.data} />}
      </Paper>
      {data && (
        <Group justify="space-between">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {data.total === 1 ? '1 customer waiting' : `${data.total} customers waiting`}
            </Text>
            {isFetching && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          {data.last_page > 1 && (
            <Pagination
              total={data.last_page}
              value={data.current_page}
              onChange={(next) => setSearchParams({ page: String(next) })}
              size="sm"
              getControlProps={(control) => ({
                'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
              })}
            />
          )}
        </Group>
      )}
    </Stack>
  );
}
