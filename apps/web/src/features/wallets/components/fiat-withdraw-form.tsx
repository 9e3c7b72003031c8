import { FIAT_TEXTS, waitUntilText, type BankAccount, type FiatCurrency } from '@florin/contracts';
import {
  Alert,
  Button,
  Divider,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { SendCodeButton } from '../../../components/send-code-button';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { formatDecimal, FIAT_DECIMALS } from '../../../lib/format';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { isWaiting, useNowPassing } from '../../../lib/use-now-passing';
import { useBankAccount } from '../api/get-bank-account';
import { useWithdrawInfo, type FiatWithdrawInfo } from '../api/get-withdraw-info';
import { newIdempotencyKey, useWithdrawFiat } from '../api/withdraw-fiat';
import { checkWithdrawAmount, cleanAmountInput, feeFor, receiveAmount } from '../fiat-amounts';

const CODE_LENGTH = 6;

function money(symbol: string, value: string | undefined): string {
  if (value === undefined) return '—';
  return `${symbol}${formatDecimal(value, FIAT_DECIMALS) ?? value}`;
}

/** The spec's 'Register Bank Details!' warning (001 section 2). */
export function RegisterBankWarning({ onRegister }: { onRegister?: () => void }) {
  return (
    <Alert color="orange" title={FIAT_TEXTS.registerBankTitle} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{FIAT_TEXTS.registerBankText}</Text>
        {onRegister && (
          <Button size="compact-sm" variant="light" color="orange" onClick={onRegister}>
            Register a bank account
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Why the Withdraw button is off, when the bank account is there but not usable yet. */
function accountBlocker(account: BankAccount, now: number): string | undefined {
  if (!account.verified) return FIAT_TEXTS.bankAccountUnverified;
  if (isWaiting(account.withdrawals_allowed_from, now))
    return waitUntilText(FIAT_TEXTS.bankDetailsChanged, new Date(account.withdrawals_allowed_from));
  return undefined;
}

type FormErrors = { amount?: string; passcode?: string };

function WithdrawForm({
  currency,
  account,
  info,
  onRegister,
}: {
  currency: FiatCurrency;
  account: BankAccount | null;
  info: FiatWithdrawInfo;
  onRegister: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [passcode, setPasscode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  // One key per submitted form: a retry of the same submission (a lost answer) cannot pay twice.
  const idempotencyKey = useRef<string | null>(null);
  const withdraw = useWithdrawFiat();
  const symbol = info.currency_symbol;
  const rules = { ...info, currency };
  // Every reason at once: the customer learns each wait, not one after another; each goes when its wait ends.
  const now = useNowPassing([info.blocked_until, account?.withdrawals_allowed_from]);
  const blockers = [
    isWaiting(info.blocked_until, now)
      ? waitUntilText(FIAT_TEXTS.twoFactorResetWait, new Date(info.blocked_until))
      : undefined,
    account ? accountBlocker(account, now) : undefined,
  ].filter((text) => text !== undefined);
  const canSubmit = account !== null && blockers.length === 0;

  const handleAmountChange = (text: string) => {
    setAmount(cleanAmountInput(text));
    idempotencyKey.current = null;
    setErrors((current) => ({ ...current, amount: undefined }));
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!account || !canSubmit) return;
    const next: FormErrors = { amount: checkWithdrawAmount(amount, rules) };
    if (info.passcode_required && passcode.trim() === '') next.passcode = FIAT_TEXTS.passcodeRequired;
    setErrors(next);
    if (next.amount || next.passcode) return;
    idempotencyKey.current ??= newIdempotencyKey();
    withdraw.mutate(
      {
        idempotencyKey: idempotencyKey.current,
        body: {
          amount: amount.trim(),
          currency_code: currency,
          passcode: info.passcode_required ? passcode.trim() : undefined,
          name_of_account: account.name_of_account,
          bank_account_number: account.bank_account_number,
          bank_sort_code: account.bank_sort_code,
        },
      },
      {
        onSuccess: () => {
          idempotencyKey.current = null;
          setAmount('');
          setPasscode('');
          setErrors({});
          showSuccessToast({
            title: FIAT_TEXTS.transactionSuccessful,
            message: 'Your withdrawal is pending: it reaches your bank within 3 business days.',
          });
        },
        onError: (error) => {
          const appError = toAppError(error);
          if (appError.code === 'WITHDRAWAL_REFUSED') {
            const data = appError.data ?? {};
            setErrors({
              amount: typeof data.amount === 'string' ? data.amount : undefined,
              passcode: typeof data.passcode === 'string' ? data.passcode : undefined,
            });
            // The spec: a 400 lists the values of its data, one per line.
            const lines = Object.values(data).filter((value): value is string => typeof value === 'string');
            showErrorToast({
              id: 'withdraw',
              title: 'Failed!',
              message: lines.join('\n') || appError.message,
            });
            return;
          }
          if (appError.code === 'VALIDATION_FAILED') {
            setErrors({ amount: appError.errors?.amount?.[0], passcode: appError.errors?.passcode?.[0] });
            showErrorToast({ id: 'withdraw', title: 'Incorrect Input', message: describeError(appError) });
            return;
          }
          if (appError.code === 'BANK_ACCOUNT_NOT_SET') {
            showErrorToast({ id: 'withdraw', title: 'Unsuccessful!', message: appError.message });
            return;
          }
          // 403 (not live) shows the server's message; 5xx the generic text.
          reportError(appError, { title: 'Failed!' });
        },
      },
    );
  };

  const fee = feeFor(amount, rules);
  const receive = receiveAmount(amount, rules);

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={`Withdraw ${currency}`}>
      <Stack gap="sm">
        {!account && <RegisterBankWarning onRegister={onRegister} />}
        {account && (
          <Stack gap={0}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Bank account name
            </Text>
            <Text fw={600} aria-label="Bank account name">
              {account.name_of_account}
            </Text>
            <Text size="sm" c="dimmed">
              Account ending{' '}
              {(currency === 'GBP' ? account.bank_account_number : account.bank_sort_code).slice(-4)}
            </Text>
          </Stack>
        )}
        {blockers.length > 0 && (
          <Alert color="orange" title="Withdrawals are not possible yet" role="status">
            <Stack gap={4}>
              {blockers.map((text) => (
                <Text key={text} size="sm">
                  {text}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Group justify="space-between" gap="xs">
          <Text size="sm">Available to withdraw</Text>
          <Text size="sm" fw={600} ff="monospace" data-testid="withdraw-available">
            {money(symbol, info.available)}
          </Text>
        </Group>
        <TextInput
          label="Amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          leftSection={<Text size="sm">{symbol}</Text>}
          value={amount}
          onChange={(event) => handleAmountChange(event.currentTarget.value)}
          error={errors.amount}
          description={`Minimum withdrawal: ${money(symbol, info.minimum)}`}
          rightSectionWidth={64}
          rightSection={
            <Button size="compact-xs" variant="light" onClick={() => handleAmountChange(info.available)}>
              Max
            </Button>
          }
        />
        {info.passcode_required && (
          <TextInput
            label="2FA Code"
            description={
              info.email_codes
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
            rightSectionWidth={info.email_codes ? 96 : undefined}
            rightSection={info.email_codes ? <SendCodeButton purpose="Fiat Withdraw(2fa)" /> : undefined}
          />
        )}
        <Divider />
        <Group justify="space-between" gap="xs">
          <Text size="sm">Withdraw fee</Text>
          <Text size="sm" ff="monospace" data-testid="withdraw-fee">
            {money(symbol, fee)}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            You Will Get
          </Text>
          <Text fw={700} ff="monospace" data-testid="withdraw-receive">
            {money(symbol, receive)}
          </Text>
        </Group>
        <Button type="submit" fullWidth loading={withdraw.isPending} disabled={!canSubmit}>
          Withdraw
        </Button>
        <Alert color="gray" variant="light" title="Important">
          <List size="sm" spacing={4}>
            <List.Item>Withdraw only to the same bank account your money was deposited from.</List.Item>
            <List.Item>
              Your bank account must be verified for deposits, as UK anti-money-laundering rules require.
            </List.Item>
            <List.Item>Fiat withdrawals take up to 3 business days.</List.Item>
          </List>
        </Alert>
      </Stack>
    </form>
  );
}

/** The spec's fiat withdraw form (001 section 2) for one currency. */
export function FiatWithdrawForm({
  currency,
  onRegister,
}: {
  currency: FiatCurrency;
  onRegister: () => void;
}) {
  const account = useBankAccount(currency);
  const info = useWithdrawInfo(currency);

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby="withdraw-heading"
    >
      <Stack gap="sm">
        <Title order={2} fz={{ base: 18, sm: 20 }} id="withdraw-heading">
          Withdraw {currency}
        </Title>
        {(account.isPending || info.isPending) && (
          <Stack gap="sm" role="status" aria-label="Loading the withdraw form">
            <Skeleton height={40} />
            <Skeleton height={40} />
            <Skeleton height={36} />
          </Stack>
        )}
        {(account.isError || info.isError) && (
          <Alert color="red" title="Failed!" role="alert">
            <Group gap="xs">
              <Text size="sm">The withdraw form could not be loaded.</Text>
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => {
                  void account.refetch();
                  void info.refetch();
                }}
              >
                Try again
              </Button>
            </Group>
          </Alert>
        )}
        {account.isSuccess && info.isSuccess && (
          <WithdrawForm currency={currency} account={account.data} info={info.data} onRegister={onRegister} />
        )}
      </Stack>
    </Paper>
  );
}
