import type { AuditEntry } from '@florin/contracts';
import { Box, Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { useAuditLog, type AuditLogFilter } from './api/list-audit-log';
import { auditChanges } from './audit-changes';
import { AdminNotFound } from './components/admin-not-found';
import { mayOpen, useSignedInStaff } from './staff-access';
import { PagedResults } from './components/paged-results';

/** The roles the server opens the audit log to (besides superadmins). */
const AUDIT_LOG_ROLES = ['compliance'] as const;

/** The filter lives in the address, so a link (from a customer's page, say) can open the log filtered. */
function filterFrom(searchParams: URLSearchParams): AuditLogFilter {
  const page = Number(searchParams.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    target_type: searchParams.get('target_type')?.trim() || undefined,
    target_id: searchParams.get('target_id')?.trim() || undefined,
  };
}

function ChangesCell({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry);
  if (changes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {changes.map((change) => (
        <Text key={change.field} size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {change.field}: {change.before !== undefined && `${change.before} → `}
          {change.after ?? '(removed)'}
        </Text>
      ))}
    </Stack>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="xs" striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Staff</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Changes</Table.Th>
            <Table.Th>IP address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(entry.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{entry.staff_email ?? 'System'}</Text>
              </Table.Td>
              <Table.Td>
                <Code style={{ overflowWrap: 'anywhere' }}>{entry.action}</Code>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {entry.target_type}
                  {entry.target_id !== null && ` #${entry.target_id}`}
                </Text>
              </Table.Td>
              <Table.Td>
                <ChangesCell entry={entry} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {entry.ip ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone: one card per entry instead of a table wider than the screen. */
function AuditCards({ entries }: { entries: AuditEntry[] }) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Audit log">
      {entries.map((entry) => (
        <Paper key={entry.id} component="li" withBorder radius="md" p="sm">
          <Stack gap={6}>
            <Group justify="space-between" gap="xs">
              <Code style={{ overflowWrap: 'anywhere' }}>{entry.action}</Code>
              <Text size="xs" c="dimmed">
                {formatDateTime(entry.created_at)}
              </Text>
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {entry.staff_email ?? 'System'} · {entry.target_type}
              {entry.target_id !== null && ` #${entry.target_id}`}
            </Text>
            {auditChanges(entry).length > 0 && <ChangesCell entry={entry} />}
            {entry.ip && (
              <Text size="xs" c="dimmed">
                From {entry.ip}
              </Text>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** `/admin/audit-log` (superadmin, compliance): who did what to what, newest first, 50 a page. */
export function AuditLogPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, AUDIT_LOG_ROLES)) return <AdminNotFound />;
  return <AuditLogScreen />;
}

function AuditLogScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams);
  const { data, isError } = useAuditLog(filter);
  const [targetType, setTargetType] = useState(filter.target_type ?? '');
  const [targetId, setTargetId] = useState(filter.target_id ?? '');

  const applyFilter = (next: AuditLogFilter) => {
    const params = new URLSearchParams();
    if (next.page > 1) params.set('page', String(next.page));
    if (next.target_type) params.set('target_type', next.target_type);
    if (next.target_id) params.set('target_id', next.target_id);
    setSearchParams(params);
  };

  const handleFilter = (event: FormEvent) => {
    event.preventDefault();
    applyFilter({
      page: 1,
      target_type: targetType.trim() || undefined,
      target_id: targetId.trim() || undefined,
    });
  };

  const handleClear = () => {
    setTargetType('');
    setTargetId('');
    applyFilter({ page: 1 });
  };

  return (
    <Stack gap="md" maw={1200}>
      <title>Audit log · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Audit log
        </Title>
        <Text size="sm" c="dimmed">
          Every action taken in the back office, newest first. Entries can never be changed or removed.
        </Text>
      </Stack>
      <form onSubmit={handleFilter}>
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Target type"
            placeholder="e.g. staff, user"
            value={targetType}
            onChange={(event) => setTargetType(event.currentTarget.value)}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            label="Target ID"
            value={targetId}
            onChange={(event) => setTargetId(event.currentTarget.value)}
            w={{ base: '100%', xs: 180 }}
          />
          <Group gap="xs">
            <Button type="submit">Filter</Button>
            <Button variant="default" onClick={handleClear}>
              Clear
            </Button>
          </Group>
        </Group>
      </form>
      <PagedResults
        data={data}
        isError={isError}
        texts={{
          error: 'The audit log could not be loaded. Reload the page to try again.',
          loading: 'Loading the audit log',
          empty: 'No entries match.',
        }}
        countText={(total) => (total === 1 ? '1 entry' : `${total} entries`)}
        onPage={(page) => applyFilter({ ...filter, page })}
      >
        {(entries) => (
          <>
            <Box visibleFrom="sm">
              <AuditTable entries={entries} />
            </Box>
            <Box hiddenFrom="sm">
              <AuditCards entries={entries} />
            </Box>
          </>
        )}
      </PagedResults>
    </Stack>
  );
}
