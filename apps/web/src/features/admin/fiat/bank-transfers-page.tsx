import {
  FIAT_SUSPENSE_REASON_LABELS,
  RecordFiatDepositBodySchema,
  type AdminFiatDeposit,
  type FiatCurrency,
  type RecordFiatDepositBody,
} from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import {
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { reportError, toAppError } from '../../../lib/errors';
import { formatDateTime, formatDecimal, FIAT_DECIMALS } from '../../../lib/format';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { ReasonModal } from '../compliance/components/reason-modal';
import { FIAT_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useRecordDeposit } from './api/record-deposit';
import { useAssignDeposit, useReturnDeposit } from './api/resolve-deposit';
import { useSuspenseList } from './api/list-suspense';
import { AssignDepositModal } from '../components/assign-deposit-modal';
import { ImportStatementForm } from './components/import-statement-form';

type RecordForm = {
  currency: FiatCurrency;
  amount: string;
  payer_name: string;
  reference: string;
  bank_transaction_id: string;
  value_date: string;
  payer_sort_code: string;
  payer_account_number: string;
  payer_iban: string;
};

const RECORD_FIELDS = [
  'currency',
  'amount',
  'payer_name',
  'reference',
  'bank_transaction_id',
  'value_date',
  'payer_sort_code',
  'payer_account_number',
  'payer_iban',
] as const;

/** The date input gives '' when empty; the contract wants it absent. */
const RecordFormSchema = z.preprocess(
  (values) => ({ ...(values as RecordForm), value_date: (values as RecordForm).value_date || null }),
  RecordFiatDepositBodySchema,
);

const EMPTY_RECORD: RecordForm = {
  currency: 'GBP',
  amount: '',
  payer_name: '',
  reference: '',
  bank_transaction_id: '',
  value_date: '',
  payer_sort_code: '',
  payer_account_number: '',
  payer_iban: '',
};

/** The account a transfer came from, as the back office prints it; null when the source did not say. */
function payerAccountText(deposit: AdminFiatDeposit): string | null {
  if (deposit.payer_sort_code && deposit.payer_account_number)
    return `${deposit.payer_sort_code.replace(/(\d{2})(?=\d)/g, '$1-')} ${deposit.payer_account_number}`;
  return deposit.payer_iban;
}

function amountText(value: string, currency: string): string {
  return `${formatDecimal(value, FIAT_DECIMALS) ?? value} ${currency}`;
}

function RecordDepositForm() {
  const record = useRecordDeposit();
  const form = useForm<RecordForm>({
    resolver: contractResolver<RecordForm>(RecordFormSchema),
    defaultValues: EMPTY_RECORD,
  });
  const { errors } = form.formState;

  const handleSubmit = (values: RecordForm) => {
    const body: RecordFiatDepositBody = { ...values, value_date: values.value_date || null };
    record.mutate(body, {
      onSuccess: ({ message, data }) => {
        showSuccessToast({
          title:
            data.outcome === 'credited'
              ? 'Transfer credited'
              : data.outcome === 'suspense'
                ? 'In suspense'
                : 'Already recorded',
          message,
        });
        form.reset(EMPTY_RECORD);
      },
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, RECORD_FIELDS);
        if (!appError.errors) reportError(appError, { title: 'Transfer not recorded' });
      },
    });
  };

  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="record-transfer-heading"
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="record-transfer-heading">
            Record a transfer by hand
          </Title>
          <Text size="sm" c="dimmed">
            Credited at once when the reference names a live customer and the payer is them; otherwise it
            waits in suspense. Give the account it came from when the bank shows it: money from the customer’s
            registered account verifies it, money from another account waits in suspense. A bank transaction
            id recorded before credits nothing again.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NativeSelect label="Currency" data={[...FIAT_CODES]} {...form.register('currency')} />
          <TextInput
            label="Amount"
            inputMode="decimal"
            error={errors.amount?.message}
            {...form.register('amount')}
          />
          <TextInput
            type="date"
            label="Value date"
            error={errors.value_date?.message}
            {...form.register('value_date')}
          />
          <TextInput label="Payer name" error={errors.payer_name?.message} {...form.register('payer_name')} />
          <TextInput
            label="Reference"
            description="As the payer wrote it"
            error={errors.reference?.message}
            {...form.register('reference')}
          />
          <TextInput
            label="Bank transaction id"
            error={errors.bank_transaction_id?.message}
            {...form.register('bank_transaction_id')}
          />
          <TextInput
            label="Payer’s sort code"
            description="GBP, if the bank shows it"
            error={errors.payer_sort_code?.message}
            {...form.register('payer_sort_code')}
          />
          <TextInput
            label="Payer’s account number"
            description="GBP, with the sort code"
            error={errors.payer_account_number?.message}
            {...form.register('payer_account_number')}
          />
          <TextInput
            label="Payer’s IBAN"
            description="EUR and USD, if the bank shows it"
            error={errors.payer_iban?.message}
            {...form.register('payer_iban')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={record.isPending}>
            Record transfer
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function SuspenseEntry({
  deposit,
  onAssign,
  onReturn,
}: {
  deposit: AdminFiatDeposit;
  onAssign: (deposit: AdminFiatDeposit) => void;
  onReturn: (deposit: AdminFiatDeposit) => void;
}) {
  const amount = amountText(deposit.amount, deposit.currency);
  const account = payerAccountText(deposit);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={`${amount} from ${deposit.payer_name}`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} ff="monospace">
            {amount}
          </Text>
          <Text size="sm">
            From <b>{deposit.payer_name}</b>
            {account ? ` (account ${account})` : ''} · reference “{deposit.reference || 'none'}”
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Bank transaction {deposit.bank_transaction_id} ·{' '}
            {deposit.value_date ?? formatDateTime(deposit.created_at)} ·{' '}
            {deposit.source === 'import' ? 'imported' : 'recorded by hand'}
          </Text>
          {deposit.suspense_reason && (
            <Text size="sm" c="orange.8">
              {FIAT_SUSPENSE_REASON_LABELS[deposit.suspense_reason]}
              {deposit.customer_name
                ? ` (reference names ${deposit.customer_name}, id ${deposit.user_id})`
                : ''}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <Button size="compact-sm" onClick={() => onAssign(deposit)}>
            Assign
          </Button>
          <Button size="compact-sm" variant="default" color="red" onClick={() => onReturn(deposit)}>
            Return
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

function SuspenseList() {
  const suspense = useSuspenseList();
  const returnDeposit = useReturnDeposit();
  const [assigning, setAssigning] = useState<AdminFiatDeposit | null>(null);
  const assignDeposit = useAssignDeposit();
  const [returning, setReturning] = useState<AdminFiatDeposit | null>(null);
  const deposits = suspense.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="suspense-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz={18} id="suspense-heading">
            Suspense list
          </Title>
          {suspense.isFetching && !suspense.isPending && <Loader size="xs" aria-label="Updating" />}
        </Group>
        {suspense.isPending && (
          <Group justify="center" p="md">
            <Loader aria-label="Loading the suspense list" />
          </Group>
        )}
        {suspense.isError && !suspense.data && (
          <Group justify="center" gap="sm" p="md">
            <Text c="dimmed">The suspense list could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void suspense.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        {suspense.data && deposits.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing waits in suspense.
          </Text>
        )}
        {deposits.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label="Transfers in suspense"
          >
            {deposits.map((deposit) => (
              <SuspenseEntry
                key={deposit.id}
                deposit={deposit}
                onAssign={setAssigning}
                onReturn={setReturning}
              />
            ))}
          </Stack>
        )}
        {suspense.hasNextPage && (
          <Button
            variant="light"
            onClick={() => void suspense.fetchNextPage()}
            loading={suspense.isFetchingNextPage}
          >
            View More
          </Button>
        )}
      </Stack>
      <AssignDepositModal
        depositId={assigning?.id ?? null}
        summary={
          assigning && (
            <>
              Credit {formatDecimal(assigning.amount, FIAT_DECIMALS)} {assigning.currency} from “
              {assigning.payer_name}” (reference “{assigning.reference || 'none'}”) to a customer. Check the
              payer is the customer first.
            </>
          )
        }
        assign={assignDeposit}
        successTitle="Transfer assigned"
        onClose={() => setAssigning(null)}
      />
      <ReasonModal
        opened={returning !== null}
        onClose={() => setReturning(null)}
        title="Return the transfer"
        description={
          returning
            ? `Mark ${amountText(returning.amount, returning.currency)} from ${returning.payer_name} as sent back to the payer. Nothing is credited.`
            : ''
        }
        confirmLabel="Mark as returned"
        color="red"
        isPending={returnDeposit.isPending}
        onSubmit={(reason) => returnDeposit.mutateAsync({ id: returning?.id ?? '', reason })}
        successTitle="Transfer returned"
        errorTitle="Not returned"
      />
    </Paper>
  );
}

/** `/admin/bank-transfers` (finance): incoming transfers recorded by hand or imported, and the suspense list. */
export function BankTransfersPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, FIAT_SCREEN_ROLES)) return <AdminNotFound />;
  return (
    <Stack gap="md" maw={1100}>
      <title>Bank transfers · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Bank transfers
        </Title>
        <Text size="sm" c="dimmed">
          Customers’ deposits by bank transfer. Each is matched to a customer by its reference.
        </Text>
      </Stack>
      <Alert color="blue" variant="light">
        A payer whose name is not the customer’s, or money from an account the customer has not registered,
        waits in suspense: check who sent it before you assign it.
      </Alert>
      <ImportStatementForm />
      <RecordDepositForm />
      <SuspenseList />
    </Stack>
  );
}
