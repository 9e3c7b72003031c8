import {
  AUTO_SELL_REFUSED_COINS,
  AUTO_TRADE_2FA_PURPOSE,
  AUTO_TRADE_TEXTS,
  type AutoTradeItem,
  type AutoTradeType,
  type User,
} from '@florin/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SendCodeButton } from '../../components/send-code-button';
import { showErrorToast } from '../../lib/toasts';
import { useCancelAutoTrade, useAutoTrades, useCreateAutoTrade } from './api/auto-trades';
import { useTierTerms } from './api/get-trading-terms';
import { InvestorGate } from '../../components/investor-gate';

const CODE_LENGTH = 6;

type FormErrors = { coin?: string; passcode?: string };

/** Spec 002 §5's checks, in the screen's order; the title and text of the first that fails. */
function firstProblem(
  type: AutoTradeType,
  coinId: string | null,
  passcode: string,
): { field: keyof FormErrors; title: string; text: string } | null {
  if (!coinId)
    return {
      field: 'coin',
      title: AUTO_TRADE_TEXTS.coinNotSelectedTitle,
      text: AUTO_TRADE_TEXTS.coinNotSelected,
    };
  if (type === 'sell' && (AUTO_SELL_REFUSED_COINS as readonly string[]).includes(coinId))
    return {
      field: 'coin',
      title: AUTO_TRADE_TEXTS.coinNotAllowedTitle,
      text: AUTO_TRADE_TEXTS.coinNotAllowed,
    };
  if (passcode.trim() === '')
    return {
      field: 'passcode',
      title: AUTO_TRADE_TEXTS.passcodeMissingTitle,
      text: AUTO_TRADE_TEXTS.passcodeMissing,
    };
  return null;
}

/** The Account page's Auto Trade tab (spec 002 §2.2): choose buy or sell, a coin, the 2FA code; the active list. */
export function AutoTradeTab({ user }: { user: User }) {
  return (
    <Stack gap="lg">
      <Text c="dimmed">{AUTO_TRADE_TEXTS.intro}</Text>
      <InvestorGate />
      {/* E-mailed codes (platform_2fa_mobile) are a second factor too: the Send 2FA button gives one. */}
      {user.disable_florin_2fa !== 1 && user.platform_2fa_mobile !== 1 ? (
        <Alert color="yellow" title={AUTO_TRADE_TEXTS.secondFactorNeededTitle}>
          {AUTO_TRADE_TEXTS.secondFactorNeeded}{' '}
          <Anchor component={Link} to="/user/settings">
            Settings
          </Anchor>
        </Alert>
      ) : null}
      <AutoTradeForm userId={user.id} canEmailCode={user.platform_2fa_mobile === 1} />
      <ActiveAutoTrades userId={user.id} />
    </Stack>
  );
}

function AutoTradeForm({ userId, canEmailCode }: { userId: number; canEmailCode: boolean }) {
  const terms = useTierTerms();
  const create = useCreateAutoTrade();
  const [type, setType] = useState<AutoTradeType>('buy');
  const [coinId, setCoinId] = useState<string | null>(null);
  const [passcode, setPasscode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});

  const coins = (terms.data?.coins ?? [])
    .filter((coin) => (type === 'buy' ? coin.can_buy : coin.can_sell))
    .map((coin) => ({ value: coin.coin_id, label: coin.coin_id.toUpperCase() }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(type, coinId, passcode);
    if (problem) {
      setErrors({ [problem.field]: problem.text });
      showErrorToast({ id: `auto-trade-${problem.title}`, title: problem.title, message: problem.text });
      return;
    }
    create.mutate(
      { userId, type, coinId: coinId ?? '', passcode: passcode.trim() },
      {
        onSuccess: () => {
          setCoinId(null);
          setPasscode('');
          setErrors({});
        },
        onError: () => setPasscode(''),
      },
    );
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <form aria-label="Set up auto trade" onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="auto-trade-type">
              {AUTO_TRADE_TEXTS.typeLabel}
            </Text>
            <SegmentedControl
              aria-labelledby="auto-trade-type"
              value={type}
              onChange={(value) => {
                setType(value === 'sell' ? 'sell' : 'buy');
                setErrors({});
              }}
              data={[
                { value: 'buy', label: AUTO_TRADE_TEXTS.buy },
                { value: 'sell', label: AUTO_TRADE_TEXTS.sell },
              ]}
              fullWidth
            />
          </Stack>
          <Select
            label={AUTO_TRADE_TEXTS.coinLabel}
            placeholder={AUTO_TRADE_TEXTS.coinPlaceholder}
            data={coins}
            value={coinId}
            onChange={(value) => {
              setCoinId(value);
              setErrors((current) => ({ ...current, coin: undefined }));
            }}
            error={errors.coin}
            allowDeselect={false}
          />
          <TextInput
            label={AUTO_TRADE_TEXTS.passcodeLabel}
            description={
              canEmailCode
                ? 'Press Send 2FA for a code by e-mail, or use your authenticator app.'
                : 'The 6-digit code from your authenticator app.'
            }
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            value={passcode}
            onChange={(event) => {
              setPasscode(event.currentTarget.value.replace(/\D/g, '').slice(0, CODE_LENGTH));
              setErrors((current) => ({ ...current, passcode: undefined }));
            }}
            error={errors.passcode}
            rightSectionWidth={canEmailCode ? 96 : undefined}
            rightSection={canEmailCode ? <SendCodeButton purpose={AUTO_TRADE_2FA_PURPOSE} /> : undefined}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} w={{ base: '100%', sm: 'auto' }}>
              {AUTO_TRADE_TEXTS.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function activityOf(item: AutoTradeItem): string {
  return item.type === 'buy' ? AUTO_TRADE_TEXTS.autoBuy : AUTO_TRADE_TEXTS.autoSell;
}

function CancelButton({ item, onCancel }: { item: AutoTradeItem; onCancel: (item: AutoTradeItem) => void }) {
  return (
    <Button
      size="compact-sm"
      variant="light"
      color="red"
      onClick={() => onCancel(item)}
      aria-label={`${AUTO_TRADE_TEXTS.cancel} ${activityOf(item)}`}
    >
      {AUTO_TRADE_TEXTS.cancel}
    </Button>
  );
}

function ActiveAutoTrades({ userId }: { userId: number }) {
  const { data: items, isPending, isError } = useAutoTrades(userId);
  const cancel = useCancelAutoTrade(userId);
  const [toCancel, setToCancel] = useState<AutoTradeItem | null>(null);

  const handleConfirmCancel = () => {
    if (!toCancel) return;
    cancel.mutate(toCancel.id, { onSettled: () => setToCancel(null) });
  };

  return (
    <Stack gap="sm">
      <Title order={2} fz="h4" id="active-auto-trading">
        {AUTO_TRADE_TEXTS.tableTitle}
      </Title>
      {isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : isError ? (
        <Alert color="red">{AUTO_TRADE_TEXTS.serverError}</Alert>
      ) : (
        <>
          <Table
            visibleFrom="sm"
            aria-labelledby="active-auto-trading"
            fz="sm"
            verticalSpacing="xs"
            horizontalSpacing="xs"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{AUTO_TRADE_TEXTS.activity}</Table.Th>
                <Table.Th>{AUTO_TRADE_TEXTS.dateCreated}</Table.Th>
                <Table.Th>{AUTO_TRADE_TEXTS.asset}</Table.Th>
                <Table.Th>{AUTO_TRADE_TEXTS.cancel}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="dimmed">
                      {AUTO_TRADE_TEXTS.empty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                items.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>{activityOf(item)}</Table.Td>
                    <Table.Td>{item._created_str}</Table.Td>
                    <Table.Td>{item._coin_str}</Table.Td>
                    <Table.Td>
                      <CancelButton item={item} onCancel={setToCancel} />
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
          {/* Below 768 px: one card per entry, the table's columns as labelled lines. */}
          <Stack hiddenFrom="sm" gap="xs" role="list" aria-labelledby="active-auto-trading">
            {items.length === 0 ? (
              <Text size="sm" c="dimmed" role="listitem">
                {AUTO_TRADE_TEXTS.empty}
              </Text>
            ) : (
              items.map((item) => (
                <Paper key={item.id} withBorder radius="md" p="sm" role="listitem">
                  <Group justify="space-between" wrap="nowrap" align="center">
                    <Stack gap={2}>
                      <Text size="sm" fw={600}>
                        {activityOf(item)} · {item._coin_str}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {AUTO_TRADE_TEXTS.dateCreated}: {item._created_str}
                      </Text>
                    </Stack>
                    <CancelButton item={item} onCancel={setToCancel} />
                  </Group>
                </Paper>
              ))
            )}
          </Stack>
        </>
      )}
      <Modal
        opened={toCancel !== null}
        onClose={() => setToCancel(null)}
        title={AUTO_TRADE_TEXTS.cancelTitle}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{toCancel ? `${activityOf(toCancel)} · ${toCancel._coin_str}` : null}</Text>
          <Text size="sm">{AUTO_TRADE_TEXTS.cancelQuestion}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setToCancel(null)}>
              {AUTO_TRADE_TEXTS.cancelKeep}
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={handleConfirmCancel}>
              {AUTO_TRADE_TEXTS.cancelConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
