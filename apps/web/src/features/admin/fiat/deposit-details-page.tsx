import { UpdateFiatBankSettingsBodySchema, type FiatBankSettings } from '@florin/contracts';
import { FIAT_CODES } from '@florin/domain';
import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { FIAT_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useFiatSettings } from './api/list-fiat-settings';
import { useUpdateFiatSettings, type FiatSettingsInput } from './api/update-fiat-settings';

type SettingsForm = Required<FiatSettingsInput>;
const FIELDS = [
  'account_name',
  'account_number',
  'sort_code',
  'bank_name',
  'iban',
  'bic',
  'second_approval_from',
] as const;

const CURRENCY_ORDER: readonly string[] = FIAT_CODES;

/** GBP first, then EUR and USD, as everywhere else. */
function byCurrency(a: FiatBankSettings, b: FiatBankSettings): number {
  return CURRENCY_ORDER.indexOf(a.currency) - CURRENCY_ORDER.indexOf(b.currency);
}

function valuesOf(settings: FiatBankSettings): SettingsForm {
  return {
    account_name: settings.account_name,
    account_number: settings.account_number,
    sort_code: settings.sort_code,
    bank_name: settings.bank_name,
    iban: settings.iban,
    bic: settings.bic,
    second_approval_from: settings.second_approval_from,
  };
}

function CurrencySettingsForm({ settings }: { settings: FiatBankSettings }) {
  const update = useUpdateFiatSettings();
  const form = useForm<SettingsForm>({
    resolver: contractResolver<SettingsForm>(UpdateFiatBankSettingsBodySchema),
    defaultValues: valuesOf(settings),
  });
  const { errors } = form.formState;
  const isGbp = settings.currency === 'GBP';
  const headingId = `deposit-details-${settings.currency}`;

  const handleSubmit = (body: SettingsForm) =>
    update.mutate(
      { currency: settings.currency, body },
      {
        onSuccess: ({ message, data }) => {
          showSuccessToast({ title: `${settings.currency} details saved`, message });
          form.reset(valuesOf(data));
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
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} fz={18} id={headingId}>
            {settings.currency}
          </Title>
          <Text size="xs" c="dimmed">
            Last changed {formatDateTime(settings.updated_at)}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {isGbp
            ? 'Customers see the account name, number, sort code and bank.'
            : 'Customers see the company name (account name), BIC and IBAN.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={isGbp ? 'Account name' : 'Company name'}
            error={errors.account_name?.message}
            {...form.register('account_name')}
          />
          <TextInput label="Bank name" error={errors.bank_name?.message} {...form.register('bank_name')} />
          <TextInput
            label="Account number"
            error={errors.account_number?.message}
            {...form.register('account_number')}
          />
          <TextInput label="Sort code" error={errors.sort_code?.message} {...form.register('sort_code')} />
          <TextInput label="IBAN" error={errors.iban?.message} {...form.register('iban')} />
          <TextInput label="BIC" error={errors.bic?.message} {...form.register('bic')} />
          <TextInput
            label="Second approval from"
            description={`Withdrawals of at least this many ${settings.currency} need a second staff member.`}
            inputMode="decimal"
            error={errors.second_approval_from?.message}
            {...form.register('second_approval_from')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            Save {settings.currency} details
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** `/admin/deposit-details` (finance): where customers send money, per currency, and the second-approval amount. */
export function DepositDetailsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, FIAT_SCREEN_ROLES)) return <AdminNotFound />;
  return <DepositDetailsScreen />;
}

function DepositDetailsScreen() {
  const settings = useFiatSettings();
  return (
    <Stack gap="md" maw={1100}>
      <title>Deposit details · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Deposit details
        </Title>
        <Text size="sm" c="dimmed">
          The bank details customers see on their deposit screen. Check every digit: money sent to a wrong
          account is hard to get back.
        </Text>
      </Stack>
      {settings.isPending && (
        <Group justify="center" p="xl">
          <Loader aria-label="Loading the deposit details" />
        </Group>
      )}
      {settings.isError && !settings.data && (
        <Group justify="center" gap="sm" p="md">
          <Text c="dimmed">The deposit details could not be loaded.</Text>
          <Button size="compact-sm" variant="light" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {settings.data &&
        [...settings.data]
          .sort(byCurrency)
          .map((entry) => <CurrencySettingsForm key={entry.currency} settings={entry} />)}
    </Stack>
  );
}
