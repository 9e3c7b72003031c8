import {
  ENQUIRY_TYPE_LABELS,
  ENQUIRY_TYPES,
  EnquiryTypeSchema,
  type Enquiry,
  type EnquiryType,
} from '@florin/contracts';
import { Anchor, Badge, Box, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { AdminNotFound } from '../components/admin-not-found';
import { ENQUIRIES_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useEnquiries, type EnquiriesFilter } from './api/list-enquiries';
import { PagedResults } from '../components/paged-results';

const ALL_TYPES = 'all';
const TYPE_OPTIONS = [
  { value: ALL_TYPES, label: 'All types' },
  ...ENQUIRY_TYPES.map((type) => ({ value: type, label: ENQUIRY_TYPE_LABELS[type] })),
];

/** The filter lives in the address, so a link (from a forwarded enquiry's mail) opens the list. */
function filterFrom(searchParams: URLSearchParams): EnquiriesFilter {
  const page = Number(searchParams.get('page'));
  const type = EnquiryTypeSchema.safeParse(searchParams.get('type'));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, type: type.success ? type.data : undefined };
}

function Sender({ enquiry }: { enquiry: Enquiry }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {enquiry.first_name} {enquiry.last_name}
      </Text>
      <Anchor href={`mailto:${enquiry.email}`} size="xs" style={{ overflowWrap: 'anywhere' }}>
        {enquiry.email}
      </Anchor>
    </Stack>
  );
}

function TypeBadge({ type }: { type: EnquiryType }) {
  return (
    <Badge variant="light" color="gray" style={{ whiteSpace: 'nowrap' }}>
      {ENQUIRY_TYPE_LABELS[type]}
    </Badge>
  );
}

/** Forwarded: it is in the team's mailbox too. Not forwarded: the mail failed, and this list is the only copy. */
function Forwarded({ enquiry }: { enquiry: Enquiry }) {
  return enquiry.forwarded_at ? (
    <Text size="xs" c="dimmed">
      Forwarded by email
    </Text>
  ) : (
    <Badge color="red" variant="light">
      Not forwarded
    </Badge>
  );
}

function Message({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

function EnquiryTable({ enquiries }: { enquiries: Enquiry[] }) {
  return (
    <Table verticalSpacing="sm" aria-label="Enquiries" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={150}>Received</Table.Th>
          <Table.Th w={210}>From</Table.Th>
          <Table.Th w={230}>Type</Table.Th>
          <Table.Th>Message</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {enquiries.map((enquiry) => (
          <Table.Tr key={enquiry.id} style={{ verticalAlign: 'top' }}>
            <Table.Td>
              <Stack gap={4}>
                <Text size="sm">{formatDateTime(enquiry.created_at)}</Text>
                <Forwarded enquiry={enquiry} />
              </Stack>
            </Table.Td>
            <Table.Td>
              <Sender enquiry={enquiry} />
            </Table.Td>
            <Table.Td>
              <TypeBadge type={enquiry.type} />
            </Table.Td>
            <Table.Td>
              <Message text={enquiry.message} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** On a phone: one card per enquiry instead of a table wider than the screen. */
function EnquiryCards({ enquiries }: { enquiries: Enquiry[] }) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Enquiries">
      {enquiries.map((enquiry) => (
        <Paper key={enquiry.id} component="li" withBorder radius="md" p="sm">
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" align="flex-start">
              <Sender enquiry={enquiry} />
              <TypeBadge type={enquiry.type} />
            </Group>
            <Message text={enquiry.message} />
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                {formatDateTime(enquiry.created_at)}
              </Text>
              <Forwarded enquiry={enquiry} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** `/admin/enquiries` (support, superadmin): product enquiries from the contact page, newest first, read-only. */
export function EnquiriesPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, ENQUIRIES_SCREEN_ROLES)) return <AdminNotFound />;
  return <EnquiriesScreen />;
}

function EnquiriesScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams);
  const { data, isError } = useEnquiries(filter);

  const applyFilter = (next: EnquiriesFilter) => {
    const params = new URLSearchParams();
    if (next.page > 1) params.set('page', String(next.page));
    if (next.type) params.set('type', next.type);
    setSearchParams(params);
  };

  return (
    <Stack gap="md" maw={1200}>
      <title>Enquiries · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Enquiries
        </Title>
        <Text size="sm" c="dimmed">
          Product enquiries sent from the contact page, newest first. Each was also emailed to its team&apos;s
          mailbox; reply from there or to the sender&apos;s address.
        </Text>
      </Stack>
      <Select
        label="Type"
        data={TYPE_OPTIONS}
        value={filter.type ?? ALL_TYPES}
        onChange={(value) =>
          applyFilter({ page: 1, type: value && value !== ALL_TYPES ? (value as EnquiryType) : undefined })
        }
        allowDeselect={false}
        w={{ base: '100%', xs: 240 }}
      />
      <PagedResults
        data={data}
        isError={isError}
        texts={{
          error: 'The enquiries could not be loaded. Reload the page to try again.',
          loading: 'Loading the enquiries',
          empty: 'No enquiries yet.',
        }}
        countText={(total) => (total === 1 ? '1 enquiry' : `${total} enquiries`)}
        onPage={(page) => applyFilter({ ...filter, page })}
      >
        {(enquiries) => (
          <>
            <Box visibleFrom="sm">
              <EnquiryTable enquiries={enquiries} />
            </Box>
            <Box hiddenFrom="sm">
              <EnquiryCards enquiries={enquiries} />
            </Box>
          </>
        )}
      </PagedResults>
    </Stack>
  );
}
