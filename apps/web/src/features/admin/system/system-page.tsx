import { Badge, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useHealth } from './api/get-health';
import { formatDateTime } from '../../../lib/format';
import { feedRows, sourceRows, type FeedRow, type SourceRow } from './source-rows';

/** A state badge that wraps instead of cutting its words short in a narrow table cell (375 px). */
const WRAPPING_BADGE = {
  root: { height: 'auto', paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip' },
} as const;

function SourceBadge({ row }: { row: SourceRow }) {
  if (!row.standIn)
    return (
      <Badge color="teal" variant="light" styles={WRAPPING_BADGE}>
        Live
      </Badge>
    );
  return (
    <Badge color={row.allowedByName ? 'red' : 'yellow'} variant="light" styles={WRAPPING_BADGE}>
      {row.allowedByName ? 'Stand-in, allowed by ALLOW_STAND_INS' : 'Stand-in'}
    </Badge>
  );
}

function SourcesTable({ rows }: { rows: SourceRow[] }) {
  return (
    <Table verticalSpacing="xs" aria-label="Where each part's data comes from">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Part</Table.Th>
          <Table.Th>Source</Table.Th>
          <Table.Th>State</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.part}>
            <Table.Td>
              <Text size="sm">{row.part}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{row.source}</Text>
            </Table.Td>
            <Table.Td>
              <SourceBadge row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function FeedsTable({ rows }: { rows: FeedRow[] }) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No exchange feed: the market is simulated.
      </Text>
    );
  return (
    <Table verticalSpacing="xs" aria-label="Price feeds">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Feed</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Last message</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, index) => (
          <Table.Tr key={`${row.name}-${index}`}>
            <Table.Td>
              <Text size="sm">{row.name}</Text>
            </Table.Td>
            <Table.Td>
              <Badge color={row.live ? 'teal' : 'yellow'} variant="light" styles={WRAPPING_BADGE}>
                {row.state}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{row.lastMessageAt ? formatDateTime(row.lastMessageAt) : 'Never'}</Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** `/admin/system` (every staff member): which parts run on live services and which on stand-ins. */
export function SystemPage() {
  const { data, isError } = useHealth();
  return (
    <Stack gap="md" maw={900}>
      <title>System · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          System
        </Title>
        <Text size="sm" c="dimmed">
          Where this server's data comes from. A stand-in is the embedded simulation, the dev mailbox or the
          local folder: production refuses each unless ALLOW_STAND_INS names it.
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h4" mb="xs">
          Sources
        </Title>
        {isError ? (
          <Text size="sm" c="red">
            The sources could not be loaded. Reload the page to try again.
          </Text>
        ) : data ? (
          <SourcesTable rows={sourceRows(data.sources)} />
        ) : (
          <Loader size="sm" aria-label="Loading the sources" />
        )}
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h4" mb="xs">
          Price feeds
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          Each coin is priced from the freshest live feed. While every feed is stale, or two disagree by more
          than the allowed band, its quotes are refused.
        </Text>
        {data ? <FeedsTable rows={feedRows(data.price_feeds)} /> : null}
      </Paper>
    </Stack>
  );
}
