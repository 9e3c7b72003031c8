import {
  COIN_IDS,
  TERM_DEPOSIT_TEXTS,
  type AdminTermDepositOption,
  type CoinId,
  type TermDepositOptionBody,
} from '@florin/contracts';
import { trimZeros } from '@florin/domain';
import {
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, toAppError } from '../../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { mayOpen, TERM_DEPOSITS_SCREEN_ROLES, useSignedInStaff } from '../staff-access';
import { useAdminTermDepositOptions } from './api/list-term-deposit-options';
import { useSaveTermDepositOption } from './api/save-term-deposit-option';

type FormValues = {
  coinId: CoinId;
  no_days: string;
  interest_rate: string;
  active: boolean;
  min_amount: string;
  max_amount: string;
  total_cap: string;
};

const EMPTY: FormValues = {
  coinId: 'btc',
  no_days: '',
  interest_rate: '',
  active: true,
  min_amount: '0',
  max_amount: '',
  total_cap: '',
};

function valuesOf(option: AdminTermDepositOption): FormValues {
  return {
    coinId: option.coin_id,
    no_days: String(option.no_days),
    interest_rate: option.interest_rate,
    active: option.active,
    min_amount: trimZeros(option.min_amount),
    max_amount: option.max_amount === null ? '' : trimZeros(option.max_amount),
    total_cap: option.total_cap === null ? '' : trimZeros(option.total_cap),
  };
}

function bodyOf(values: FormValues): TermDepositOptionBody {
  return {
    no_days: values.no_days,
    interest_rate: values.interest_rate,
    active: values.active,
    min_amount: values.min_amount,
    max_amount: values.max_amount,
    total_cap: values.total_cap,
  };
}

type FieldErrors = Partial<Record<keyof FormValues, string>>;

/** Adds a term or changes one: the server checks every field and says which is wrong. */
function OptionForm({ option, onDone }: { option?: AdminTermDepositOption; onDone: () => void }) {
  const [values, setValues] = useState<FormValues>(option ? valuesOf(option) : EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveTermDepositOption();
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: option?.id, coinId: values.coinId, body: bodyOf(values) },
      {
        onSuccess: ({ message }) => {
          setErrors({});
          showSuccessToast({ title: 'Saved', message });
          onDone();
        },
        onError: (error) => {
          const appError = toAppError(error);
          const fields = appError.errors ?? {};
          setErrors(
            Object.fromEntries(Object.entries(fields).map(([field, messages]) => [field, messages[0]])),
          );
          if (Object.keys(fields).length === 0)
            showErrorToast({ title: 'Not saved', message: describeError(appError) });
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} aria-label={option ? 'Change term' : 'Add a term'}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Coin"
            data={COIN_IDS.map((coin) => ({ value: coin, label: coin.toUpperCase() }))}
            value={values.coinId}
            onChange={(value) => value && set('coinId', value)}
            disabled={option !== undefined}
            allowDeselect={false}
          />
          <TextInput
            label="Days"
            inputMode="numeric"
            value={values.no_days}
            onChange={(event) => set('no_days', event.currentTarget.value)}
            error={errors.no_days}
          />
          <TextInput
            label="Rate for the whole term (%)"
            inputMode="decimal"
            value={values.interest_rate}
            onChange={(event) => set('interest_rate', event.currentTarget.value)}
            error={errors.interest_rate}
          />
          <TextInput
            label="Minimum amount"
            inputMode="decimal"
            value={values.min_amount}
            onChange={(event) => set('min_amount', event.currentTarget.value)}
            error={errors.min_amount}
          />
          <TextInput
            label="Maximum amount"
            description="Empty: no maximum"
            inputMode="decimal"
            value={values.max_amount}
            onChange={(event) => set('max_amount', event.currentTarget.value)}
            error={errors.max_amount}
          />
          <TextInput
            label="Cap on live deposits"
            description="Empty: no cap"
            inputMode="decimal"
            value={values.total_cap}
            onChange={(event) => set('total_cap', event.currentTarget.value)}
            error={errors.total_cap}
          />
        </SimpleGrid>
        <Switch
          label="Offered to customers"
          checked={values.active}
          onChange={(event) => set('active', event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {option ? 'Save term' : 'Add term'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The terms offered per coin (issue 11): finance sets days, rate, limits and caps; every change is audited. */
export function TermDepositsPage() {
  const staff = useSignedInStaff();
  const options = useAdminTermDepositOptions();
  const [editing, setEditing] = useState<AdminTermDepositOption | null>(null);
  const [isAdding, setIsAdding] = useState(false);
  if (!mayOpen(staff.role, TERM_DEPOSITS_SCREEN_ROLES)) return <AdminNotFound />;

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>Term deposits</Title>
        <Button onClick={() => setIsAdding(true)}>Add a term</Button>
      </Group>
      <Text c="dimmed" size="sm">
        The rate is for the whole term. Deposits already made keep the rate and term they were made at.
      </Text>
      {options.isPending ? (
        <Loader />
      ) : options.isError ? (
        <Group gap="sm">
          <Text c="dimmed">The terms could not be loaded.</Text>
          <Button size="compact-sm" variant="light" onClick={() => void options.refetch()}>
            Try again
          </Button>
        </Group>
      ) : options.data.length === 0 ? (
        <Text c="dimmed">{TERM_DEPOSIT_TEXTS.noOptions}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Terms offered" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Coin</Table.Th>
                <Table.Th>Days</Table.Th>
                <Table.Th>Rate</Table.Th>
                <Table.Th>Minimum</Table.Th>
                <Table.Th>Maximum</Table.Th>
                <Table.Th>Cap</Table.Th>
                <Table.Th>Live now</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {options.data.map((option) => (
                <Table.Tr key={option.id}>
                  <Table.Td>{option.coin_id.toUpperCase()}</Table.Td>
                  <Table.Td>{option.no_days}</Table.Td>
                  <Table.Td>{option.interest_rate}%</Table.Td>
                  <Table.Td ff="monospace">{trimZeros(option.min_amount)}</Table.Td>
                  <Table.Td ff="monospace">
                    {option.max_amount === null ? '—' : trimZeros(option.max_amount)}
                  </Table.Td>
                  <Table.Td ff="monospace">
                    {option.total_cap === null ? '—' : trimZeros(option.total_cap)}
                  </Table.Td>
                  <Table.Td ff="monospace">{trimZeros(option.total_live)}</Table.Td>
                  <Table.Td>
                    <Badge color={option.active ? 'teal' : 'gray'} variant="light">
                      {option.active ? 'Offered' : 'Off'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="light"
                      onClick={() => setEditing(option)}
                      aria-label={`Change ${option.coin_id.toUpperCase()} ${option.no_days} days`}
                    >
                      Change
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={isAdding} onClose={() => setIsAdding(false)} title="Add a term" size="lg">
        <OptionForm onDone={() => setIsAdding(false)} />
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `${editing.coin_id.toUpperCase()} ${editing.no_days} days` : ''}
        size="lg"
      >
        {editing ? <OptionForm key={editing.id} option={editing} onDone={() => setEditing(null)} /> : null}
      </Modal>
    </Stack>
  );
}
