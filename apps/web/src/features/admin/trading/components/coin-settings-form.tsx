import { AdminCoinSchema, type AdminCoin } from '@florin/contracts';
import { trimZeros } from '@florin/domain';
import { Button, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { Controller, useForm, type Control, type Path } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { AdminCoinBodySchema, useSaveAdminCoin } from '../api/update-admin-coin';

type CoinForm = {
  active: boolean;
  primary: boolean;
  ask_spread: string;
  bid_spread: string;
  platform_fee: string;
  amount_min: string;
  amount_max: string;
  withdraw_fee: string;
  disable_buy: boolean;
  disable_sell: boolean;
  disable_deposit: boolean;
  disable_withdraw: boolean;
  confirmations: number | string;
  /** The revision the form was filled from: a save from stale values is a 409. */
  revision: string;
};

const FIELDS = [
  'active',
  'primary',
  'ask_spread',
  'bid_spread',
  'platform_fee',
  'amount_min',
  'amount_max',
  'withdraw_fee',
  'disable_buy',
  'disable_sell',
  'disable_deposit',
  'disable_withdraw',
  'confirmations',
] as const;

function valuesOf(coin: AdminCoin): CoinForm {
  return {
    active: coin.active,
    primary: coin.primary,
    ask_spread: coin.ask_spread,
    bid_spread: coin.bid_spread,
    platform_fee: coin.platform_fee ?? '',
    amount_min: trimZeros(coin.amount_min),
    amount_max: coin.amount_max === null ? '' : trimZeros(coin.amount_max),
    withdraw_fee: trimZeros(coin.withdraw_fee),
    disable_buy: coin.disable_buy,
    disable_sell: coin.disable_sell,
    disable_deposit: coin.disable_deposit,
    disable_withdraw: coin.disable_withdraw,
    confirmations: coin.confirmations,
    revision: coin.revision,
  };
}

function SwitchField({
  control,
  name,
  label,
  description,
}: {
  control: Control<CoinForm>;
  name: Path<CoinForm>;
  label: string;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Switch
          label={label}
          description={description}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function Unit({ children }: { children: string }) {
  return (
    <Text size="xs" c="dimmed">
      {children}
    </Text>
  );
}

/** One coin's settings: what it trades at, its limits, its switches. Saved whole; the next quote uses them. */
export function CoinSettingsForm({ coin }: { coin: AdminCoin }) {
  const save = useSaveAdminCoin();
  const form = useForm<CoinForm>({
    resolver: contractResolver<CoinForm>(AdminCoinBodySchema),
    defaultValues: valuesOf(coin),
  });
  const { errors } = form.formState;
  const { asset } = coin;

  const handleSubmit = (values: CoinForm) =>
    save.mutate(
      {
        coinId: coin.coin_id,
        body: {
          ...values,
          platform_fee: values.platform_fee === '' ? null : values.platform_fee,
          amount_max: values.amount_max === '' ? null : values.amount_max,
          confirmations: Number(values.confirmations),
        },
      },
      {
        onSuccess: ({ message, data }) => {
          showSuccessToast({ title: `${asset} settings saved`, message });
          form.reset(valuesOf(data));
        },
        onError: (error) => {
          const appError = toAppError(error);
          // Someone else saved meanwhile: the form shows their values, to change again.
          const current = AdminCoinSchema.safeParse(appError.data?.current);
          if (appError.code === 'CONFLICT' && current.success) form.reset(valuesOf(current.data));
          markFieldErrors(appError, form.setError, FIELDS);
          if (!appError.errors) reportError(appError, { title: 'Not saved' });
        },
      },
    );

  return (
    <form
      noValidate
      aria-label={`${asset} settings`}
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="md">
        <Stack gap="xs">
          <Title order={3} fz={15}>
            Prices and fees
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Ask spread"
              description="Added to the mid price for buyers."
              inputMode="decimal"
              rightSection={<Unit>%</Unit>}
              error={errors.ask_spread?.message}
              {...form.register('ask_spread')}
            />
            <TextInput
              label="Bid spread"
              description="Taken off the mid price for sellers."
              inputMode="decimal"
              rightSection={<Unit>%</Unit>}
              error={errors.bid_spread?.message}
              {...form.register('bid_spread')}
            />
            <TextInput
              label="Platform fee"
              description="Caps every customer's fee; empty: no cap; 0: free."
              placeholder="No cap"
              inputMode="decimal"
              rightSection={<Unit>%</Unit>}
              error={errors.platform_fee?.message}
              {...form.register('platform_fee')}
            />
          </SimpleGrid>
        </Stack>
        <Stack gap="xs">
          <Title order={3} fz={15}>
            Limits
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <TextInput
              label="Smallest trade"
              description="Also the smallest withdrawal."
              inputMode="decimal"
              rightSection={<Unit>{asset}</Unit>}
              rightSectionWidth={48}
              error={errors.amount_min?.message}
              {...form.register('amount_min')}
            />
            <TextInput
              label="Largest trade"
              description="Empty: no maximum."
              placeholder="No maximum"
              inputMode="decimal"
              rightSection={<Unit>{asset}</Unit>}
              rightSectionWidth={48}
              error={errors.amount_max?.message}
              {...form.register('amount_max')}
            />
            <TextInput
              label="Withdrawal fee"
              description="Taken from each withdrawal."
              inputMode="decimal"
              rightSection={<Unit>{asset}</Unit>}
              rightSectionWidth={48}
              error={errors.withdraw_fee?.message}
              {...form.register('withdraw_fee')}
            />
            <Controller
              control={form.control}
              name="confirmations"
              render={({ field }) => (
                <NumberInput
                  label="Confirmations"
                  description="Blocks before a deposit is credited."
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={errors.confirmations?.message}
                />
              )}
            />
          </SimpleGrid>
        </Stack>
        <Stack gap="xs">
          <Title order={3} fz={15}>
            Switches
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" verticalSpacing="md">
            <SwitchField
              control={form.control}
              name="active"
              label="Active"
              description="Listed and priced; inactive coins cannot be traded."
            />
            <SwitchField
              control={form.control}
              name="primary"
              label="Primary"
              description="The variant the asset selectors list."
            />
            <SwitchField
              control={form.control}
              name="disable_buy"
              label="Disable buy"
              description="New buys are refused."
            />
            <SwitchField
              control={form.control}
              name="disable_sell"
              label="Disable sell"
              description="New sells are refused."
            />
            <SwitchField
              control={form.control}
              name="disable_deposit"
              label="Disable deposit"
              description="No new deposit addresses."
            />
            <SwitchField
              control={form.control}
              name="disable_withdraw"
              label="Disable withdraw"
              description="Withdrawals are paused."
            />
          </SimpleGrid>
        </Stack>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            Save {asset} settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
