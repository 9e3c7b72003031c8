import { AdminCurrencySchema, type AdminCurrency } from '@florin/contracts';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { AdminCurrencyBodySchema, useSaveAdminCurrency } from '../api/update-admin-currency';

type CurrencyForm = {
  withdraw_min: string;
  withdraw_fee: string;
  withdraw_fee_free_from: string;
  /** The revision the form was filled from: a save from stale values is a 409. */
  revision: string;
};
const FIELDS = ['withdraw_min', 'withdraw_fee', 'withdraw_fee_free_from'] as const;

function valuesOf(currency: AdminCurrency): CurrencyForm {
  return {
    withdraw_min: currency.withdraw_min,
    withdraw_fee: currency.withdraw_fee,
    withdraw_fee_free_from: currency.withdraw_fee_free_from ?? '',
    revision: currency.revision,
  };
}

/** One fiat currency's withdrawal minimum, fee and the amount from which withdrawals are free. */
export function CurrencySettingsForm({ currency }: { currency: AdminCurrency }) {
  const save = useSaveAdminCurrency();
  const form = useForm<CurrencyForm>({
    resolver: contractResolver<CurrencyForm>(AdminCurrencyBodySchema),
    defaultValues: valuesOf(currency),
  });
  const { errors } = form.formState;
  const headingId = `currency-settings-${currency.code}`;
  const unit = (
    <Text size="xs" c="dimmed">
      {currency.code}
    </Text>
  );

  const handleSubmit = (values: CurrencyForm) =>
    save.mutate(
      {
        code: currency.code,
        body: {
          ...values,
          withdraw_fee_free_from: values.withdraw_fee_free_from === '' ? null : values.withdraw_fee_free_from,
        },
      },
      {
        onSuccess: ({ message, data }) => {
          showSuccessToast({ title: `${currency.code} settings saved`, message });
          form.reset(valuesOf(data));
        },
        onError: (error) => {
          const appError = toAppError(error);
          // Someone else saved meanwhile: the form shows their values, to change again.
          const current = AdminCurrencySchema.safeParse(appError.data?.current);
          if (appError.code === 'CONFLICT' && current.success) form.reset(valuesOf(current.data));
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
        <Title order={2} fz={18} id={headingId}>
          {currency.code} · {currency.name}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label="Minimum withdrawal"
            description="The smallest a customer may withdraw."
            inputMode="decimal"
            rightSection={unit}
            rightSectionWidth={48}
            error={errors.withdraw_min?.message}
            {...form.register('withdraw_min')}
          />
          <TextInput
            label="Withdrawal fee"
            description="Charged below the free-from amount."
            inputMode="decimal"
            rightSection={unit}
            rightSectionWidth={48}
            error={errors.withdraw_fee?.message}
            {...form.register('withdraw_fee')}
          />
          <TextInput
            label="Free from"
            description="No fee from this amount; empty: always a fee."
            placeholder="Always a fee"
            inputMode="decimal"
            rightSection={unit}
            rightSectionWidth={48}
            error={errors.withdraw_fee_free_from?.message}
            {...form.register('withdraw_fee_free_from')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save {currency.code} settings
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
