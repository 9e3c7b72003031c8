import {
  COIN_IDS,
  CreateWhitelistedWalletBodySchema,
  CRYPTO_WITHDRAW_TEXTS,
  WHITELIST_PAGE_STEP,
  WHITELIST_TEXTS,
  type User,
  type WhitelistedWallet,
} from '@florin/contracts';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { hasTwoFactor } from '../../lib/current-user';
import { formatDateTime } from '../../lib/format';
import { contractResolver } from '../../lib/forms';
import { usePriceFeed } from '../../lib/price-feed';
import { showSuccessToast } from '../../lib/toasts';
import { isUsableAt } from '../../lib/saved-addresses';
import { useNowPassing } from '../../lib/use-now-passing';
import { useAddWhitelistedWallet, type AddWalletInput } from './api/create-whitelisted-wallet';
import { useWhitelistedWallets } from './api/list-whitelisted-wallets';
import { useRequestWalletRemovalCode } from './api/remove-whitelisted-wallet';
import { TwoFactorRequired } from './components/two-factor-required';
import { ViewMore } from './components/view-more';
import { WalletRemovalModal } from './components/wallet-removal-modal';
import { reportWalletFormError, reportWalletRemovalError } from './whitelist-errors';

const CODE_LENGTH = 6;
const WALLET_FIELDS = ['coin_id', 'address', 'tag', 'label', 'passcode'] as const;

/** The contract's body, with the xrp tag as a field of its own (it joins the address after '?' when sent). */
const walletResolver = contractResolver<AddWalletInput>(
  CreateWhitelistedWalletBodySchema.omit({ type: true }).extend({
    tag: z
      .string()
      .trim()
      .regex(/^\d{0,10}$/, CRYPTO_WITHDRAW_TEXTS.tagInvalid),
  }),
);

/**
 * The coins an address can be whitelisted for: those whose base currency is
 * none or gbp (spec 001 §5), which are the five the contract names. Their
 * names come from the price feed when it has loaded.
 */
function useCoinOptions() {
  const feed = usePriceFeed();
  return COIN_IDS.map((coinId) => {
    const name = feed.data?.[coinId]?.coin.name;
    return { value: coinId, label: name ? `${name} (${coinId.toUpperCase()})` : coinId.toUpperCase() };
  });
}

function AddWalletForm() {
  const add = useAddWhitelistedWallet();
  const coins = useCoinOptions();
  const form = useForm<AddWalletInput>({
    resolver: walletResolver,
    defaultValues: { coin_id: 'btc', address: '', tag: '', label: '', passcode: '' },
  });
  const { errors } = form.formState;
  const isXrp = useWatch({ control: form.control, name: 'coin_id' }) === 'xrp';

  const handleSubmit = form.handleSubmit((values) => {
    add.mutate(values, {
      onSuccess: () => {
        form.reset({ coin_id: values.coin_id, address: '', tag: '', label: '', passcode: '' });
        showSuccessToast({ title: 'Wallet Whitelisting', message: WHITELIST_TEXTS.walletAdded });
      },
      onError: (error) => {
        form.setValue('passcode', '');
        reportWalletFormError(error, form.setError, WALLET_FIELDS);
      },
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-labelledby="add-wallet-title">
      <Stack gap="md" maw={480}>
        <Stack gap={4}>
          <Title order={2} fz="lg" id="add-wallet-title">
            Whitelist a wallet address
          </Title>
          <Text size="sm" c="dimmed">
            Addresses on your whitelist show in the withdraw form, so you need not type them again.
          </Text>
        </Stack>
        <NativeSelect
          label="Coin"
          data={coins}
          error={errors.coin_id?.message}
          {...form.register('coin_id')}
        />
        <TextInput
          label="Wallet Address"
          autoComplete="off"
          spellCheck={false}
          error={errors.address?.message}
          {...form.register('address')}
        />
        {isXrp && (
          <TextInput
            label="Destination Tag"
            description="Optional: the tag the receiving exchange gave you."
            inputMode="numeric"
            autoComplete="off"
            error={errors.tag?.message}
            {...form.register('tag')}
          />
        )}
        <TextInput
          label="Label"
          description="A name you will recognise, e.g. My hardware wallet."
          autoComplete="off"
          maxLength={50}
          error={errors.label?.message}
          {...form.register('label')}
        />
        <TextInput
          label="2FA Code"
          description="The 6-digit code from your authenticator app."
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          error={errors.passcode?.message}
          {...form.register('passcode')}
        />
        <Group>
          <Button type="submit" loading={add.isPending}>
            Whitelist Address
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function WalletRow({
  wallet,
  onRemove,
  isRequestingRemoval,
}: {
  wallet: WhitelistedWallet;
  onRemove: () => void;
  isRequestingRemoval: boolean;
}) {
  // Its first 24 hours end on screen when they end.
  const now = useNowPassing([wallet.usable_from]);
  const isUsable = isUsableAt(wallet, now);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={wallet.label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} miw={0}>
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {wallet.coin_id.toUpperCase()}
            </Badge>
            <Text fw={600} truncate>
              {wallet.label}
            </Text>
          </Group>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {wallet.address}
            {wallet.tag && (
              <Text span inherit style={{ whiteSpace: 'nowrap' }}>
                {' '}
                · tag {wallet.tag}
              </Text>
            )}
          </Text>
          {isUsable ? (
            <Text size="xs" c="dimmed">
              Added {formatDateTime(wallet.created_at)}
            </Text>
          ) : (
            <Text size="xs" c="orange.9" fw={500}>
              Usable from {formatDateTime(wallet.usable_from)}
            </Text>
          )}
        </Stack>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={onRemove}
          loading={isRequestingRemoval}
          aria-label={`Remove ${wallet.label}`}
          style={{ flexShrink: 0 }}
        >
          Remove
        </Button>
      </Group>
    </Paper>
  );
}

function WhitelistedWalletList() {
  const [limit, setLimit] = useState(WHITELIST_PAGE_STEP);
  const [removing, setRemoving] = useState<WhitelistedWallet | null>(null);
  const wallets = useWhitelistedWallets(limit);
  const requestCode = useRequestWalletRemovalCode();

  const handleRemove = (wallet: WhitelistedWallet) =>
    requestCode.mutate(wallet.id, {
      onSuccess: () => setRemoving(wallet),
      onError: reportWalletRemovalError,
    });

  return (
    <Stack gap="sm" component="section" aria-labelledby="whitelisted-wallets-title">
      <Stack gap={4}>
        <Title order={2} fz="lg" id="whitelisted-wallets-title">
          Whitelisted wallets
        </Title>
        <Text size="sm" c="dimmed">
          {WHITELIST_TEXTS.usableAfter}
        </Text>
      </Stack>
      {wallets.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading whitelisted wallets">
          <Skeleton height={72} />
          <Skeleton height={72} />
        </Stack>
      )}
      {wallets.isError && (
        <Alert color="red" title="Failed!" role="alert">
          <Group gap="xs">
            <Text size="sm">Your whitelisted wallets could not be loaded.</Text>
            <Button size="compact-sm" variant="light" onClick={() => void wallets.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      )}
      {wallets.isSuccess && wallets.data.total === 0 && (
        <Text size="sm" c="dimmed">
          No whitelisted wallets yet.
        </Text>
      )}
      {wallets.isSuccess && wallets.data.data.length > 0 && (
        <Stack
          component="ul"
          gap="xs"
          aria-label="Whitelisted wallets"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {wallets.data.data.map((wallet) => (
            <WalletRow
              key={wallet.id}
              wallet={wallet}
              onRemove={() => handleRemove(wallet)}
              isRequestingRemoval={requestCode.isPending && requestCode.variables === wallet.id}
            />
          ))}
        </Stack>
      )}
      {wallets.isSuccess && (
        <ViewMore
          shown={wallets.data.data.length}
          total={wallets.data.total}
          noun="wallets"
          onViewMore={() => setLimit((current) => current + WHITELIST_PAGE_STEP)}
          isLoading={wallets.isPlaceholderData}
        />
      )}
      <WalletRemovalModal wallet={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

/** The Wallet Whitelisting tab (spec 001 §2): the form (2FA needed) and the list of whitelisted addresses. */
export function WalletWhitelistTab({ user }: { user: User }) {
  return (
    <Stack gap="xl">
      {hasTwoFactor(user) ? <AddWalletForm /> : <TwoFactorRequired />}
      <Divider />
      <WhitelistedWalletList />
    </Stack>
  );
}
