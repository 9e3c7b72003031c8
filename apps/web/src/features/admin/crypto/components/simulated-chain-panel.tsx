import {
  CRYPTO_ASSETS,
  MineBodySchema,
  SimulatedDepositBodySchema,
  type CryptoAsset,
} from '@florin/contracts';
import {
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { useBroadcastSimulatedDeposit, useMineSimulatedBlocks } from '../api/crypto-deposits-simulated-chain';

/** `tag` is null once the resolver has parsed the form: the contract's body, which handleSubmit receives. */
type BroadcastForm = { asset: CryptoAsset; address: string; tag: string | null; amount: string };
const BROADCAST_FIELDS = ['asset', 'address', 'tag', 'amount'] as const;
const EMPTY_BROADCAST: BroadcastForm = { asset: 'BTC', address: '', tag: '', amount: '' };

/** An empty tag field means a payment without a tag; only XRP payments carry one. */
function broadcastBodyOf(values: BroadcastForm) {
  const tag = values.asset === 'XRP' ? values.tag?.trim() : undefined;
  return { ...values, tag: tag || null };
}

/** The contract's body, with words for the two checks it leaves to zod's generic messages. */
const BroadcastFormSchema = z.preprocess(
  (values) => broadcastBodyOf(values as BroadcastForm),
  SimulatedDepositBodySchema.extend({
    address: z.string().trim().min(1, 'Enter the address.').max(120),
    tag: z
      .string()
      .trim()
      .regex(/^\d{1,10}$/, 'A destination tag is a whole number below 4294967296.')
      .nullish(),
  }),
);

function BroadcastDepositForm() {
  const broadcast = useBroadcastSimulatedDeposit();
  const [lastTxid, setLastTxid] = useState<string>();
  const form = useForm<BroadcastForm>({
    resolver: contractResolver<BroadcastForm>(BroadcastFormSchema),
    defaultValues: EMPTY_BROADCAST,
  });
  const { errors } = form.formState;
  const isXrp = useWatch({ control: form.control, name: 'asset' }) === 'XRP';

  const handleSubmit = (values: BroadcastForm) => {
    broadcast.mutate(broadcastBodyOf(values), {
      onSuccess: ({ data, message }) => {
        showSuccessToast({ title: 'Deposit broadcast', message });
        setLastTxid(data.txid);
        form.reset({ ...values, tag: '', amount: '' });
      },
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, BROADCAST_FIELDS);
        if (!appError.errors) reportError(appError, { title: 'Not broadcast' });
      },
    });
  };

  return (
    <form
      aria-labelledby="broadcast-heading"
      noValidate
      onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)}
    >
      <Stack gap="sm">
        <Title order={3} fz={16} id="broadcast-heading">
          Broadcast a deposit
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NativeSelect label="Coin" data={[...CRYPTO_ASSETS]} {...form.register('asset')} />
          <TextInput
            label="Amount"
            inputMode="decimal"
            error={errors.amount?.message}
            {...form.register('amount')}
          />
        </SimpleGrid>
        <TextInput
          label="Address"
          description="A customer’s deposit address; for XRP the house address."
          autoComplete="off"
          spellCheck={false}
          error={errors.address?.message}
          {...form.register('address')}
        />
        {isXrp && (
          <TextInput
            label="Destination tag"
            description="Leave it empty for a payment without a tag: it goes to the suspense list."
            inputMode="numeric"
            error={errors.tag?.message}
            {...form.register('tag')}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={broadcast.isPending}>
            Broadcast deposit
          </Button>
        </Group>
        {lastTxid && (
          <Text size="xs" c="dimmed" role="status" style={{ overflowWrap: 'anywhere' }}>
            In the mempool:{' '}
            <Text span ff="monospace" size="xs">
              {lastTxid}
            </Text>
          </Text>
        )}
      </Stack>
    </form>
  );
}

function MineBlocksForm() {
  const mine = useMineSimulatedBlocks();
  const [asset, setAsset] = useState<CryptoAsset>('BTC');
  const [blocks, setBlocks] = useState<string | number>(1);
  const [blocksError, setBlocksError] = useState<string>();
  const [height, setHeight] = useState<{ asset: CryptoAsset; height: number }>();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = MineBodySchema.safeParse({ asset, blocks: blocks === '' ? undefined : blocks });
    if (!parsed.success) {
      setBlocksError('Enter a whole number of blocks from 1 to 1000.');
      return;
    }
    setBlocksError(undefined);
    mine.mutate(parsed.data, {
      onSuccess: ({ data, message }) => {
        showSuccessToast({ title: `${data.asset} at height ${data.height}`, message });
        setHeight(data);
      },
      onError: (error) => {
        const appError = toAppError(error);
        if (appError.errors?.blocks) {
          setBlocksError(appError.errors.blocks[0]);
          return;
        }
        reportError(appError, { title: 'Not mined' });
      },
    });
  };

  return (
    <form aria-labelledby="mine-heading" noValidate onSubmit={handleSubmit}>
      <Stack gap="sm">
        <Title order={3} fz={16} id="mine-heading">
          Mine blocks
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NativeSelect
            label="Chain"
            data={[...CRYPTO_ASSETS]}
            value={asset}
            onChange={(event) => setAsset(event.currentTarget.value as CryptoAsset)}
          />
          <NumberInput
            label="Blocks"
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            value={blocks}
            onChange={setBlocks}
            error={blocksError}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          The mempool goes into the first block; the deposit watcher runs after the last.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={mine.isPending}>
            Mine blocks
          </Button>
        </Group>
        {height && (
          <Text size="xs" c="dimmed" role="status">
            {height.asset} chain height {height.height}
          </Text>
        )}
      </Stack>
    </form>
  );
}

export function SimulatedChainPanel() {
  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="simulated-chain-heading"
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="simulated-chain-heading">
            Simulated chain
          </Title>
          <Text size="sm" c="dimmed">
            For trying deposits without a real network. A coin watched on a real node refuses both.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <BroadcastDepositForm />
          <MineBlocksForm />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
