import { CRYPTO_ASSETS, type CryptoWithdrawalSettings } from '@florin/contracts';
import {
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { AdminNotFound } from '../components/admin-not-found';
import { CRYPTO_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { useCryptoWithdrawalSettings } from './api/list-crypto-withdrawal-settings';
import {
  CryptoWithdrawalSettingsFormSchema,
  useSaveCryptoWithdrawalSettings,
} from './api/update-crypto-withdrawal-settings';

type SettingsForm = {
  daily_limit: string;
  auto_approve_whitelisted: boolean;
  payout: {
    auto_payout: boolean;
    max_per_withdrawal: string;
    daily_total: string;
    hot_wallet_ceiling: string;
  };
};
const FIELDS = [
  'daily_limit',
  'auto_approve_whitelisted',
  'payout.auto_payout',
  'payout.max_per_withdrawal',
  'payout.daily_total',
  'payout.hot_wallet_ceiling',
] as const;

/** The automatic payout limits, in the order the form shows them (decision 131). */
const PAYOUT_LIMITS = [
  ['max_per_withdrawal', 'Most per withdrawal', 'Larger withdrawals are sent by staff from cold storage.'],
  ['daily_total', 'Most per day', 'Sent automatically in 24 hours, all customers together.'],
  [
    'hot_wallet_ceiling',
    'Hot wallet ceiling',
    'While the hot wallet holds more, nothing is sent automatically.',
  ],
] as const;

const ASSET_ORDER: readonly string[] = CRYPTO_ASSETS;

/** BTC, ETH, LTC, BCH, XRP, as everywhere else. */
function byAsset(a: CryptoWithdrawalSettings, b: CryptoWithdrawalSettings): number {
  return ASSET_ORDER.indexOf(a.asset) - ASSET_ORDER.indexOf(b.asset);
}

/** Where this coin's approved withdrawals are paid from: the node's hot wallet, the simulated chain, or cold storage. */
function sentFromLabel(settings: CryptoWithdrawalSettings): string {
  if (settings.payout.hot_wallet) return 'Hot wallet within limits, else cold storage';
  return settings.wallet === 'simulated' ? 'Sent by the simulated chain' : 'Sent from cold storage';
}

function valuesOf(settings: CryptoWithdrawalSettings): SettingsForm {
  return {
    daily_limit: settings.daily_limit ?? '',
    auto_approve_whitelisted: settings.auto_approve_whitelisted,
    payout: {
      auto_payout: settings.payout.auto_payout,
      max_per_withdrawal: settings.payout.max_per_withdrawal ?? '',
      daily_total: settings.payout.daily_total ?? '',
      hot_wallet_ceiling: settings.payout.hot_wallet_ceiling ?? '',
    },
  };
}

function CoinSettingsForm({ settings }: { settings: CryptoWithdrawalSettings }) {
  const save = useSaveCryptoWithdrawalSettings();
  const form = useForm<SettingsForm>({
    resolver: contractResolver<SettingsForm>(CryptoWithdrawalSettingsFormSchema),
    defaultValues: valuesOf(settings),
  });
  const { errors } = form.formState;
  const headingId = `crypto-withdrawal-settings-${settings.coin_id}`;

  const handleSubmit = (body: SettingsForm) =>
    save.mutate(
      { coinId: settings.coin_id, body },
      {
        onSuccess: ({ message, data }) => {
          showSuccessToast({ title: `${settings.asset} settings saved`, message });
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
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} fz={18} id={headingId}>
            {settings.asset}
          </Title>
          <Badge
            variant="light"
            color={
              settings.payout.hot_wallet ? 'teal' : settings.wallet === 'cold_storage' ? 'grape' : 'gray'
            }
          >
            {sentFromLabel(settings)}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <TextInput
            label="Daily limit"
            description={`${settings.asset} per customer in 24 hours; above it two staff members approve.`}
            inputMode="decimal"
            rightSection={
              <Text size="xs" c="dimmed">
                {settings.asset}
              </Text>
            }
            rightSectionWidth={48}
            error={errors.daily_limit?.message}
            {...form.register('daily_limit')}
          />
          <Controller
            control={form.control}
            name="auto_approve_whitelisted"
            render={({ field }) => (
              <Switch
                mt={{ base: 0, sm: 'lg' }}
                label="Approve automatically"
                description="Withdrawals to an address whitelisted over 24 hours ago, within the daily limit, skip staff approval."
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.auto_approve_whitelisted?.message}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="payout.auto_payout"
          render={({ field }) => (
            <Switch
              label="Send automatically from the hot wallet"
              description={
                settings.payout.hot_wallet
                  ? 'Approved withdrawals within the limits below are sent by the node’s hot wallet.'
                  : 'No hot wallet is configured for this coin: its withdrawals are sent from cold storage.'
              }
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={errors.payout?.auto_payout?.message}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="sm">
          {PAYOUT_LIMITS.map(([name, label, description]) => (
            <TextInput
              key={name}
              label={label}
              description={description}
              inputMode="decimal"
              rightSection={
                <Text size="xs" c="dimmed">
                  {settings.asset}
                </Text>
              }
              rightSectionWidth={48}
              error={errors.payout?.[name]?.message}
              {...form.register(`payout.${name}`)}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save {settings.asset} settings
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** `/admin/crypto-withdrawal-settings` (finance): each coin's daily limit, auto-approval and automatic payout limits. */
export function CryptoWithdrawalSettingsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, CRYPTO_SCREEN_ROLES)) return <AdminNotFound />;
  return <CryptoWithdrawalSettingsScreen />;
}

function CryptoWithdrawalSettingsScreen() {
  const settings = useCryptoWithdrawalSettings();
  return (
    <Stack gap="md" maw={1100}>
      <title>Crypto withdrawal settings · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Crypto withdrawal settings
        </Title>
        <Text size="sm" c="dimmed">
          Every crypto withdrawal waits for staff approval unless automatic approval is on for its coin.
        </Text>
      </Stack>
      {settings.isPending && (
        <Group justify="center" p="xl">
          <Loader aria-label="Loading the crypto withdrawal settings" />
        </Group>
      )}
      {settings.isError && !settings.data && (
        <Group justify="center" gap="sm" p="md">
          <Text c="dimmed">The crypto withdrawal settings could not be loaded.</Text>
          <Button size="compact-sm" variant="light" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {settings.data &&
        [...settings.data]
          .sort(byAsset)
          .map((entry) => <CoinSettingsForm key={entry.coin_id} settings={entry} />)}
    </Stack>
  );
}
