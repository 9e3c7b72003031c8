import {
  NEWSLETTER_PAGE_SIZE,
  NEWSLETTER_STATUS_LABELS,
  NEWSLETTER_STATUSES,
  type NewsletterStatus,
  type NewsletterSubscriber,
} from '@florin/contracts';
import {
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../lib/format';
import { AdminNotFound } from '../components/admin-not-found';
import { NEWSLETTER_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { NEWSLETTER_EXPORT_URL, useNewsletterSubscribers } from './api/list-subscribers';

const STATUS_COLORS: Record<NewsletterStatus, string> = {
  pending: 'blue',
  confirmed: 'teal',
  unsubscribed: 'gray',
};

function StatusBadge({ status }: { status: NewsletterStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {NEWSLETTER_STATUS_LABELS[status]}
    </Badge>
  );
}

/** When the address last changed state: confirmed, unsubscribed, or signed up. */
function lastChange(subscriber: NewsletterSubscriber): string {
  if (subscriber.status === 'confirmed' && subscriber.confirmed_at)
    return `Confirmed ${formatDateTime(subscriber.confirmed_at) ?? ''}`;
  if (subscriber.status === 'unsubscribed' && subscriber.unsubscribed_at)
    return `Unsubscribed ${formatDateTime(subscriber.unsubscribed_at) ?? ''}`;
  return `Signed up ${formatDateTime(subscriber.consent_at) ?? ''}`;
}

function SubscriberList({ subscribers }: { subscribers: NewsletterSubscriber[] }) {
  return (
    <>
      <Box visibleFrom="sm">
        <Table verticalSpacing="sm" aria-label="Subscribers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Signed up</Table.Th>
              <Table.Th>Confirmed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subscribers.map((subscriber) => (
              <Table.Tr key={subscriber.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{subscriber.email}</Table.Td>
                <Table.Td>
                  <StatusBadge status={subscriber.status} />
                </Table.Td>
                <Table.Td>{formatDateTime(subscriber.consent_at)}</Table.Td>
                <Table.Td>{subscriber.confirmed_at ? formatDateTime(subscriber.confirmed_at) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack
        hiddenFrom="sm"
        gap="xs"
        component="ul"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label="Subscribers"
      >
        {subscribers.map((subscriber) => (
          <Paper key={subscriber.id} component="li" withBorder radius="md" p="sm">
            <Stack gap={6} align="flex-start">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {subscriber.email}
              </Text>
              <StatusBadge status={subscriber.status} />
              <Text size="xs" c="dimmed">
                {lastChange(subscriber)}
              </Text>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

/** `/admin/newsletter` (support, superadmin): the list's counts by status, its subscribers and the CSV export. */
export function NewsletterPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, NEWSLETTER_SCREEN_ROLES)) return <AdminNotFound />;
  return <NewsletterScreen />;
}

function NewsletterScreen() {
  const [search, setSearch] = useState({ skip: 0, q: '' });
  const [text, setText] = useState('');
  const { data: page, isError, isFetching, refetch } = useNewsletterSubscribers(search);
  const total = page?.total ?? 0;

  const handleSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ skip: 0, q: text.trim() });
  };

  return (
    <Stack gap="md" maw={1100}>
      <title>Newsletter · Florin back office</title>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            Newsletter
          </Title>
          <Text size="sm" c="dimmed">
            Visitors who signed up on the home page. Only confirmed addresses may be sent the newsletter; the
            export holds them with the consent each gave.
          </Text>
        </Stack>
        <Button component="a" href={NEWSLETTER_EXPORT_URL} download>
          Export CSV
        </Button>
      </Group>

      <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'sm' }} component="dl" m={0}>
        {NEWSLETTER_STATUSES.map((status) => (
          <Paper key={status} withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
            <Text component="dt" fz={{ base: 'xs', sm: 'sm' }} c="dimmed">
              {NEWSLETTER_STATUS_LABELS[status]}
            </Text>
            <Text component="dd" m={0} fz={{ base: 22, sm: 28 }} fw={700}>
              {page ? page.counts[status] : '–'}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>

      <form onSubmit={handleSearch} role="search">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Find an address"
            placeholder="Part of the email address"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={254}
            w={{ base: '100%', xs: 360 }}
          />
          <Button type="submit" variant="default" loading={isFetching && text.trim() === search.q}>
            Search
          </Button>
        </Group>
      </form>

      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !page && (
          <Group justify="center" p="md" gap="sm">
            <Text c="dimmed">The subscribers could not be loaded.</Text>
            <Button variant="light" size="compact-sm" onClick={() => void refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {!isError && !page && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading subscribers" />
          </Group>
        )}
        {page && page.data.length === 0 && (
          <Text c="dimmed" size="sm" p="md">
            {search.q ? `No address matches “${search.q}”.` : 'Nobody has signed up yet.'}
          </Text>
        )}
        {page && page.data.length > 0 && <SubscriberList subscribers={page.data} />}
        {total > NEWSLETTER_PAGE_SIZE && (
          <Group justify="space-between" p="sm">
            <Text size="sm" c="dimmed">
              {search.skip + 1}–{Math.min(search.skip + NEWSLETTER_PAGE_SIZE, total)} of {total}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="compact-sm"
                disabled={search.skip === 0}
                onClick={() =>
                  setSearch({ ...search, skip: Math.max(0, search.skip - NEWSLETTER_PAGE_SIZE) })
                }
              >
                Newer
              </Button>
              <Button
                variant="default"
                size="compact-sm"
                disabled={search.skip + NEWSLETTER_PAGE_SIZE >= total}
                onClick={() => setSearch({ ...search, skip: search.skip + NEWSLETTER_PAGE_SIZE })}
              >
                Older
              </Button>
            </Group>
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
