import { MotdInputSchema, type AdminMotd, type MotdInput } from '@florin/contracts';
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
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { reportError, toAppError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { MOTD_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useScheduleMotd } from './api/create-motd';
import { useWithdrawMotd } from './api/delete-motd';
import { useMotdList } from './api/list-motds';
import { fromLocalInput, motdStatus, toLocalInput, type MotdStatus } from './motd-times';

type MotdForm = { message: string; starts_at: string; ends_at: string };

const localTime = z
  .string()
  .min(1, 'Give a date and time.')
  .transform((value) => fromLocalInput(value) ?? value);

/** The inputs hold local times; the contract wants instants with an offset. */
const MotdFormSchema = z
  .object({ message: z.string(), starts_at: localTime, ends_at: localTime })
  .pipe(MotdInputSchema);

const STATUS_COLORS: Record<MotdStatus, string> = { Showing: 'teal', Scheduled: 'blue', Ended: 'gray' };

function defaultValues(): MotdForm {
  const now = new Date();
  return {
    message: '',
    starts_at: toLocalInput(now),
    ends_at: toLocalInput(new Date(now.getTime() + 24 * 60 * 60 * 1000)),
  };
}

function ScheduleForm() {
  const schedule = useScheduleMotd();
  const form = useForm<MotdForm>({
    resolver: contractResolver<MotdForm>(MotdFormSchema),
    defaultValues: defaultValues(),
  });
  const { errors } = form.formState;

  const handleSubmit = (values: MotdForm) => {
    // The resolver hands over the parsed values: instants, as the contract wants.
    const body: MotdInput = values;
    schedule.mutate(body, {
      onSuccess: () => {
        showSuccessToast({
          title: 'Message scheduled',
          message: 'Customers see it between its start and end.',
        });
        form.reset(defaultValues());
      },
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, ['message', 'starts_at', 'ends_at']);
        if (!appError.errors) reportError(appError, { title: 'Message not scheduled' });
      },
    });
  };

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
      noValidate
      aria-labelledby="motd-new-heading"
    >
      <Stack gap="sm">
        <Title order={2} fz={18} id="motd-new-heading">
          New message
        </Title>
        <Textarea
          label="Message"
          description="Shown to signed-in customers as a toast for 60 seconds, once per session. At most 280 characters."
          autosize
          minRows={2}
          maxRows={5}
          maxLength={280}
          error={errors.message?.message}
          {...form.register('message')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label="Start (UK time)"
            error={errors.starts_at?.message}
            {...form.register('starts_at')}
          />
          <TextInput
            type="datetime-local"
            label="End (UK time)"
            error={errors.ends_at?.message}
            {...form.register('ends_at')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={schedule.isPending}>
            Schedule message
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function StatusBadge({ motd }: { motd: AdminMotd }) {
  const status = motdStatus(motd, new Date());
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {status}
    </Badge>
  );
}

function MotdList({ motds, onDelete }: { motds: AdminMotd[]; onDelete: (motd: AdminMotd) => void }) {
  if (motds.length === 0) {
    return (
      <Text c="dimmed" size="sm" p="md">
        No messages yet.
      </Text>
    );
  }
  const deleteButton = (motd: AdminMotd) => (
    <Button
      variant="subtle"
      color="red"
      size="compact-sm"
      onClick={() => onDelete(motd)}
      aria-label={`Delete “${motd.message}”`}
    >
      Delete
    </Button>
  );
  return (
    <>
      <Box visibleFrom="sm">
        <Table verticalSpacing="sm" aria-label="Messages of the day">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Message</Table.Th>
              <Table.Th>Start</Table.Th>
              <Table.Th>End</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {motds.map((motd) => (
              <Table.Tr key={motd.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm">{motd.message}</Text>
                  <Text size="xs" c="dimmed">
                    By {motd.created_by}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(motd.starts_at)}</Table.Td>
                <Table.Td>{formatDateTime(motd.ends_at)}</Table.Td>
                <Table.Td>
                  <StatusBadge motd={motd} />
                </Table.Td>
                <Table.Td ta="right">{deleteButton(motd)}</Table.Td>
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
        aria-label="Messages of the day"
      >
        {motds.map((motd) => (
          <Paper key={motd.id} component="li" withBorder radius="md" p="sm">
            <Stack gap={4}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {motd.message}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(motd.starts_at)} – {formatDateTime(motd.ends_at)}
              </Text>
              <Group justify="space-between">
                <StatusBadge motd={motd} />
                {deleteButton(motd)}
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

/** `/admin/motd` (superadmin, support): the messages of the day, scheduling one and withdrawing one. */
export function MotdPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, MOTD_SCREEN_ROLES)) return <AdminNotFound />;
  return <MotdScreen />;
}

function MotdScreen() {
  const { data: motds, isError, refetch } = useMotdList();
  const withdraw = useWithdrawMotd();

  const handleDelete = (motd: AdminMotd) =>
    modals.openConfirmModal({
      title: 'Delete message',
      centered: true,
      children: <Text size="sm">Customers will no longer see “{motd.message}”.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        withdraw.mutate(motd.id, {
          onSuccess: () => showSuccessToast({ title: 'Message deleted', message: motd.message }),
        }),
    });

  return (
    <Stack gap="md" maw={1100}>
      <title>Message of the day · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Message of the day
        </Title>
        <Text size="sm" c="dimmed">
          A short notice signed-in customers see at the top right of every page while it is live.
        </Text>
      </Stack>
      <ScheduleForm />
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !motds && (
          <Group justify="center" p="md" gap="sm">
            <Text c="dimmed">The messages could not be loaded.</Text>
            <Button variant="light" size="compact-sm" onClick={() => void refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {!isError && !motds && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading messages" />
          </Group>
        )}
        {motds && <MotdList motds={motds} onDelete={handleDelete} />}
      </Paper>
    </Stack>
  );
}
