import {
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { z } from 'zod';
import { updateFeeSchedule, type FeeScheduleRow, type UpdateFeeScheduleBody } from '@florin/contracts';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { formatPounds } from '../../../../lib/format';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { useFeePlans } from '../api/get-fee-plans';
import { CustomFeePlanFormSchema, useSaveCustomFeePlan } from '../api/set-custom-fee-plan';
import { useUpdateFeeSchedule } from '../api/update-fee-schedule';

type PlanForm = { user_id: string; custom_fee_percent: string; reason: string };
const FIELDS = ['user_id', 'custom_fee_percent', 'reason'] as const;
const EMPTY: PlanForm = { user_id: '', custom_fee_percent: '', reason: '' };

function volumeBand(from: string, to: string | null): string {
  return to === null ? `${formatPounds(from)} and above` : `${formatPounds(from)} to ${formatPounds(to)}`;
}

type ScheduleForm = UpdateFeeScheduleBody;
const COLUMNS = [
  { field: 'instant_percents', row: 'instant_percent', label: 'Instant' },
  { field: 'trading_percents', row: 'trading_percent', label: 'Trading' },
] as const;
const TIER_INDEXES = [0, 1, 2, 3] as const;
const SCHEDULE_FIELDS: readonly Path<ScheduleForm>[] = [
  ...COLUMNS.flatMap(({ field }) => TIER_INDEXES.map((index) => `${field}.${index}` as const)),
  'reason',
];

/** The form of the schedule as read, with the revision a save names (a save from stale values is a 409). */
function scheduleForm(schedule: readonly FeeScheduleRow[], revision: string): ScheduleForm {
  const column = (key: 'instant_percent' | 'trading_percent') =>
    TIER_INDEXES.map((index) => schedule[index]?.[key] ?? '') as ScheduleForm['instant_percents'];
  return {
    instant_percents: column('instant_percent'),
    trading_percents: column('trading_percent'),
    reason: '',
    revision,
  };
}

/** What a 409 says the schedule is now: the form shows it, with the reason typed. */
const ChangedScheduleSchema = z.object({
  current: updateFeeSchedule.body.pick({ instant_percents: true, trading_percents: true, revision: true }),
});

/**
 * The schedule, read or edited in place: both columns are saved together with a reason for the audit log,
 * and the server checks them whole (each fee above 0 and at most 10 %, no tier dearer than the one below).
 */
function FeeScheduleTable({ schedule, revision }: { schedule: readonly FeeScheduleRow[]; revision: string }) {
  const [editing, setEditing] = useState(false);
  const save = useUpdateFeeSchedule();
  const form = useForm<ScheduleForm>({
    resolver: contractResolver<ScheduleForm>(updateFeeSchedule.body),
    defaultValues: scheduleForm(schedule, revision),
  });
  const { errors } = form.formState;

  const startEditing = () => {
    form.reset(scheduleForm(schedule, revision));
    setEditing(true);
  };
  const handleSubmit = (values: ScheduleForm) =>
    save.mutate(values, {
      onSuccess: ({ message }) => {
        showSuccessToast({ title: 'Fee schedule', message });
        setEditing(false);
      },
      onError: (error) => {
        const appError = toAppError(error);
        const changed = ChangedScheduleSchema.safeParse(appError.data);
        if (appError.code === 'CONFLICT' && changed.success)
          form.reset({ ...changed.data.current, reason: values.reason });
        markFieldErrors(appError, form.setError, SCHEDULE_FIELDS);
        if (!appError.errors) reportError(appError, { title: 'Not saved' });
      },
    });

  return (
    <form
      aria-labelledby="fee-schedule-heading"
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} fz={18} id="fee-schedule-heading">
            Fee schedule
          </Title>
          {!editing && (
            <Button size="compact-sm" variant="light" onClick={startEditing}>
              Edit schedule
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          A customer's tier comes from their GBP trading volume this calendar year; the fee depends on their
          account type, instant or trading. A change applies to every new quote; open orders keep the fee they
          were placed with.
        </Text>
        <Table.ScrollContainer minWidth={330}>
          <Table striped aria-label="Fee schedule">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tier</Table.Th>
                {/* Editing, the two columns of inputs and their errors take the width of a phone. */}
                {!editing && <Table.Th>Volume this year</Table.Th>}
                {COLUMNS.map(({ label }) => (
                  <Table.Th key={label} ta="right">
                    {label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schedule.map((row, index) => (
                <Table.Tr key={row.tier}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>Tier {row.tier}</Table.Td>
                  {!editing && <Table.Td>{volumeBand(row.volume_from, row.volume_to)}</Table.Td>}
                  {COLUMNS.map(({ field, row: key, label }) => (
                    <Table.Td key={field} ta="right" style={editing ? undefined : { whiteSpace: 'nowrap' }}>
                      {editing ? (
                        <TextInput
                          aria-label={`Tier ${row.tier} ${label.toLowerCase()} fee`}
                          inputMode="decimal"
                          size="xs"
                          maw={120}
                          ml="auto"
                          rightSection={
                            <Text size="xs" c="dimmed">
                              %
                            </Text>
                          }
                          error={errors[field]?.[index]?.message}
                          {...form.register(`${field}.${TIER_INDEXES[index] ?? 0}`)}
                        />
                      ) : (
                        `${row[key]} %`
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {editing && (
          <>
            <Textarea
              label="Reason for the change"
              autosize
              minRows={2}
              error={errors.reason?.message}
              {...form.register('reason')}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setEditing(false)} disabled={save.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save schedule
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </form>
  );
}

function CustomPlanForm() {
  const save = useSaveCustomFeePlan();
  const form = useForm<PlanForm>({
    resolver: contractResolver<PlanForm>(CustomFeePlanFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const handleSubmit = (values: PlanForm) =>
    save.mutate(
      { ...values, custom_fee_percent: values.custom_fee_percent === '' ? null : values.custom_fee_percent },
      {
        onSuccess: ({ message, data }) => {
          showSuccessToast({ title: `Fee plan of ${data.name || data.email}`, message });
          form.reset(EMPTY);
        },
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, FIELDS);
          if (!appError.errors) reportError(appError, { title: 'Not saved' });
        },
      },
    );

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="custom-plan-heading"
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="custom-plan-heading">
            Set a Custom plan
          </Title>
          <Text size="sm" c="dimmed">
            The customer pays this fee on every coin (a coin's platform fee still caps it). Leave the fee
            empty to put them back on the schedule. The reason is kept in the audit log.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Customer id"
            inputMode="numeric"
            error={errors.user_id?.message}
            {...form.register('user_id')}
          />
          <TextInput
            label="Custom fee"
            placeholder="Schedule"
            inputMode="decimal"
            rightSection={
              <Text size="xs" c="dimmed">
                %
              </Text>
            }
            error={errors.custom_fee_percent?.message}
            {...form.register('custom_fee_percent')}
          />
        </SimpleGrid>
        <Textarea
          label="Reason"
          autosize
          minRows={2}
          error={errors.reason?.message}
          {...form.register('reason')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save fee plan
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The fee schedule, which finance edits, and the customers on a Custom plan, with the form that sets one. */
export function FeePlansPanel() {
  const plans = useFeePlans();
  if (plans.isPending)
    return (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading the fee plans" />
      </Group>
    );
  if (!plans.data)
    return (
      <Group justify="center" gap="sm" p="md">
        <Text c="dimmed">The fee plans could not be loaded.</Text>
        <Button size="compact-sm" variant="light" onClick={() => void plans.refetch()}>
          Try again
        </Button>
      </Group>
    );
  const { schedule, schedule_revision: scheduleRevision, custom } = plans.data;
  return (
    <Stack gap="md">
      <FeeScheduleTable schedule={schedule} revision={scheduleRevision} />
      <CustomPlanForm />
      <Stack gap="xs">
        <Title order={2} fz={18}>
          Customers on a Custom plan
        </Title>
        {custom.length === 0 ? (
          <Text size="sm" c="dimmed">
            No customer has a Custom plan.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={330}>
            <Table striped aria-label="Customers on a Custom plan">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Customer</Table.Th>
                  <Table.Th>Account</Table.Th>
                  <Table.Th ta="right">Fee</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {custom.map((plan) => (
                  <Table.Tr key={plan.user_id}>
                    <Table.Td>{plan.user_id}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{plan.name}</Text>
                      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                        {plan.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{plan.platform === 2 ? 'Trading' : 'Instant'}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {plan.custom_fee_percent} %
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
