import type { AdminMail } from '@florin/contracts';
import { Box, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { PagedResults } from '../components/paged-results';
import { FAILED_MAIL_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useFailedMail } from './api/list-failed-mail';
import { useResendMail } from './api/resend-mail';

function pageFrom(searchParams: URLSearchParams): number {
  const page = Number(searchParams.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function Recipient({ mail }: { mail: AdminMail }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {mail.to}
      </Text>
      <Text size="xs" c="dimmed">
        {mail.user_id === null ? 'Not a customer' : `Customer ${mail.user_id}`}
      </Text>
    </Stack>
  );
}

function LastError({ mail }: { mail: AdminMail }) {
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {mail.last_error ?? 'No error recorded.'}
    </Text>
  );
}

function ResendButton({ mail }: { mail: AdminMail }) {
  const resend = useResendMail();
  return (
    <Button
      size="compact-sm"
      variant="light"
      loading={resend.isPending}
      aria-label={`Resend “${mail.subject}” to ${mail.to}`}
      onClick={() =>
        resend.mutate(mail.id, {
          onSuccess: (answer) => showSuccessToast({ title: 'Email resent', message: answer.message }),
        })
      }
    >
      Resend
    </Button>
  );
}

function FailedMailTable({ mails }: { mails: AdminMail[] }) {
  return (
    <Table verticalSpacing="sm" aria-label="Failed emails" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={150}>Written</Table.Th>
          <Table.Th w={230}>To</Table.Th>
          <Table.Th>Subject</Table.Th>
          <Table.Th w={260}>Last error</Table.Th>
          <Table.Th w={110}>
            <VisuallyHidden>Action</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {mails.map((mail) => (
          <Table.Tr key={mail.id} style={{ verticalAlign: 'top' }}>
            <Table.Td>
              <Text size="sm">{formatDateTime(mail.created_at)}</Text>
            </Table.Td>
            <Table.Td>
              <Recipient mail={mail} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{mail.subject}</Text>
              <Text size="xs" c="dimmed">
                {mail.attempts} attempts
              </Text>
            </Table.Td>
            <Table.Td>
              <LastError mail={mail} />
            </Table.Td>
            <Table.Td>
              <ResendButton mail={mail} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** On a phone: one card per mail instead of a table wider than the screen. */
function FailedMailCards({ mails }: { mails: AdminMail[] }) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Failed emails">
      {mails.map((mail) => (
        <Paper key={mail.id} component="li" withBorder radius="md" p="sm">
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {mail.subject}
            </Text>
            <Recipient mail={mail} />
            <LastError mail={mail} />
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                {formatDateTime(mail.created_at)} · {mail.attempts} attempts
              </Text>
              <ResendButton mail={mail} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** `/admin/failed-mail` (support, superadmin): e-mails that failed every attempt, each with Resend. */
export function FailedMailPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, FAILED_MAIL_SCREEN_ROLES)) return <AdminNotFound />;
  return <FailedMailScreen />;
}

function FailedMailScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams);
  const { data, isError } = useFailedMail(page);

  return (
    <Stack gap="md" maw={1200}>
      <title>Failed email · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Failed email
        </Title>
        <Text size="sm" c="dimmed">
          Emails the mail server refused at every attempt over about an hour, newest first. Resend one once
          the cause is fixed; it leaves this list when it goes back to the outbox.
        </Text>
      </Stack>
      <PagedResults
        data={data}
        isError={isError}
        texts={{
          error: 'The failed emails could not be loaded. Reload the page to try again.',
          loading: 'Loading the failed emails',
          empty: 'No email has failed.',
        }}
        countText={(total) => (total === 1 ? '1 failed email' : `${total} failed emails`)}
        onPage={(next) => setSearchParams(next > 1 ? { page: String(next) } : {})}
      >
        {(mails) => (
          <>
            <Box visibleFrom="sm">
              <FailedMailTable mails={mails} />
            </Box>
            <Box hiddenFrom="sm">
              <FailedMailCards mails={mails} />
            </Box>
          </>
        )}
      </PagedResults>
    </Stack>
  );
}
