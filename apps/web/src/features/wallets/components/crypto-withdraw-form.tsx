import {
  CRYPTO_WITHDRAW_TEXTS,
  type CoinId,
  type CryptoWithdrawal,
  type CryptoWithdrawInfo,
  type CryptoWithdrawRequest,
  type WhitelistedWallet,
  waitUntilText,
} from '@florin/contracts';
import { Alert, Button, Divider, Group, Skeleton, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useRef, useState, type FormEvent } from 'react';
import { useCurrentUser } from '../../../lib/current-user';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { isUsableAt } from '../../../lib/saved-addresses';
import { isWaiting, useNowPassing } from '../../../lib/use-now-passing';
import { useCancelCryptoWithdrawal } from '../api/cancel-crypto-withdrawal';
import { useConfirmCryptoWithdraw } from '../api/confirm-crypto-withdraw';
import { useCryptoWithdrawInfo } from '../api/get-crypto-withdraw-info';
import { useSavedAddresses } from '../api/list-saved-addresses';
import { newCryptoIdempotencyKey, useSendVerifyWithdraw } from '../api/send-verify-withdraw';
import {
  balanceAfter,
  checkCryptoWithdraw,
  formatCoinAmount,
  hasErrors,
  receiveAmount,
  type CryptoWithdrawDraft,
  type CryptoWithdrawErrors,
  type CryptoWithdrawField,
} from '../crypto-amounts';
import {
  WalletOwnerFields,
  WithdrawAmountField,
  WithdrawBalanceRows,
  WithdrawDestinationFields,
} from './crypto-withdraw-fields';
import { TwoFactorModal, WithdrawVerificationModal } from './crypto-withdraw-modals';

type BeneficiaryType = CryptoWithdrawRequest['beneficiary_type'];
type DestinationType = CryptoWithdrawRequest['destination_type'];

/** Where the confirmation stands once send-verify-withdraw has held the coins. */
type Flow =
  | { step: 'form' }
  | { step: 'verify'; withdrawal: CryptoWithdrawal }
  | { step: 'two-factor'; withdrawal: CryptoWithdrawal };

/** Field errors of a 422 from the server, the first message of each field the form shows. */
function serverFieldErrors(errors: Record<string, string[]> | undefined): CryptoWithdrawErrors {
  const result: CryptoWithdrawErrors = {};
  const fields: CryptoWithdrawField[] = [
    'amount',
    'wallet',
    'xrp_tag',
    'beneficiary_type',
    'beneficiary_name',
    'destination_type',
    'exchange_name',
  ];
  for (const field of fields) {
    const message =
      errors?.[field]?.[0] ?? (field === 'wallet' ? errors?.whitelisted_wallet_id?.[0] : undefined);
    if (message) result[field] = message;
  }
  return result;
}

/**
 * Tells the customer why send-verify-withdraw refused, and returns the errors to show under the fields
 * (none for a failure that is not about the form).
 */
function reportSendFailure(failure: unknown, body: CryptoWithdrawRequest): CryptoWithdrawErrors | null {
  const appError = toAppError(failure);
  if (appError.code === 'VALIDATION_FAILED') {
    const fieldErrors = serverFieldErrors(appError.errors);
    showErrorToast({
      id: 'crypto-withdraw',
      title: 'Failed',
      message: fieldErrors.amount ?? describeError(appError),
    });
    return fieldErrors;
  }
  if (appError.code === 'INVALID_ADDRESS') {
    const address = typeof appError.data?.address === 'string' ? appError.data.address : (body.wallet ?? '');
    const message = `The address (${address}) you provided is incorrect. Please try again or contact support.`;
    showErrorToast({
      id: 'crypto-withdraw',
      title: CRYPTO_WITHDRAW_TEXTS.invalidAddressTitle,
      message,
    });
    return { wallet: message };
  }
  reportError(appError, { title: 'Failed' });
  return null;
}

function WithdrawForm({ coin, info, isLive }: { coin: CoinId; info: CryptoWithdrawInfo; isLive: boolean }) {
  const code = coin.toUpperCase();
  const [amount, setAmount] = useState('');
  const [wallet, setWallet] = useState('');
  const [tag, setTag] = useState('');
  const [useSaved, setUseSaved] = useState(false);
  const [savedId, setSavedId] = useState<string | null>(null);
  const [beneficiaryType, setBeneficiaryType] = useState<BeneficiaryType | null>(null);
  const [beneficiaryName, setBeneficiaryName] = useState('');
  const [destinationType, setDestinationType] = useState<DestinationType | null>(null);
  const [exchangeName, setExchangeName] = useState('');
  const [errors, setErrors] = useState<CryptoWithdrawErrors>({});
  const [flow, setFlow] = useState<Flow>({ step: 'form' });
  // One key per submitted form: a retry of the same submission (a lost answer) holds the coins once.
  const idempotencyKey = useRef<string | null>(null);
  const tagInput = useRef<HTMLInputElement>(null);
  const sendVerify = useSendVerifyWithdraw();
  const cancel = useCancelCryptoWithdrawal();
  const confirm = useConfirmCryptoWithdraw();
  const saved = useSavedAddresses(coin, useSaved);
  const { data: user } = useCurrentUser();
  // Without e-mailed codes the second factor can only be the authenticator (disable_florin_2fa: 1).
  const hasAuthenticator = !info.email_codes || user?.disable_florin_2fa === 1;
  const rules = { coin, minimum: info.minimum, fee: info.fee, available: info.available };
  const savedWallet = saved.data?.find((entry) => entry.id === savedId);

  // The waits end on screen when they end: the pause, and each saved address's first 24 hours.
  const now = useNowPassing([info.blocked_until, ...(saved.data ?? []).map((entry) => entry.usable_from)]);
  const isUsable = (entry: WhitelistedWallet) => isUsableAt(entry, now);
  const blocker = info.withdraw_disabled
    ? CRYPTO_WITHDRAW_TEXTS.withdrawDisabled
    : isWaiting(info.blocked_until, now)
      ? waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, new Date(info.blocked_until))
      : undefined;

  const change = (field: CryptoWithdrawField, apply: () => void) => {
    apply();
    idempotencyKey.current = null;
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
  };

  const draft = (): CryptoWithdrawDraft => ({
    coin,
    amount: amount.trim(),
    wallet: useSaved ? null : wallet.trim(),
    whitelisted_wallet_id: useSaved && savedId ? Number(savedId) : null,
    xrp_tag: coin === 'xrp' && !useSaved ? tag.trim() || null : null,
    beneficiary_type: beneficiaryType,
    beneficiary_name: beneficiaryType === 'self' ? null : beneficiaryName.trim() || null,
    destination_type: destinationType,
    exchange_name: destinationType === 'exchange' ? exchangeName.trim() || null : null,
    fee: info.fee,
    amount_receive: receiveAmount(amount, rules) ?? null,
  });

  const resetForm = () => {
    setAmount('');
    setWallet('');
    setTag('');
    setSavedId(null);
    setBeneficiaryType(null);
    setBeneficiaryName('');
    setDestinationType(null);
    setExchangeName('');
    setErrors({});
  };

  const send = (body: CryptoWithdrawRequest) => {
    idempotencyKey.current ??= newCryptoIdempotencyKey();
    sendVerify.mutate(
      { body, idempotencyKey: idempotencyKey.current },
      {
        onSuccess: ({ data }) => {
          // The key guarded this submission only: after a cancel the same form makes a new withdrawal.
          idempotencyKey.current = null;
          setFlow({ step: 'verify', withdrawal: data });
        },
        onError: (failure) => {
          const fieldErrors = reportSendFailure(failure, body);
          if (fieldErrors) setErrors(fieldErrors);
        },
      },
    );
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (blocker || sendVerify.isPending) return;
    const current = draft();
    const found = checkCryptoWithdraw(current, rules, isLive);
    setErrors(found);
    if (hasErrors(found) || !current.beneficiary_type || !current.destination_type) return;
    const body: CryptoWithdrawRequest = {
      ...current,
      beneficiary_type: current.beneficiary_type,
      destination_type: current.destination_type,
    };
    const isTagless = coin === 'xrp' && (useSaved ? !savedWallet?.tag : !current.xrp_tag);
    if (!isTagless) {
      send(body);
      return;
    }
    modals.openConfirmModal({
      title: 'No destination tag',
      centered: true,
      children: <Text size="sm">{CRYPTO_WITHDRAW_TEXTS.noTagQuestion}</Text>,
      labels: { confirm: 'Withdraw without a tag', cancel: 'Add a tag' },
      confirmProps: { color: 'orange' },
      // "Add a tag" puts the cursor in the tag field, not back on Withdraw.
      returnFocus: false,
      onConfirm: () => send(body),
      onCancel: () => tagInput.current?.focus(),
    });
  };

  /** A modal closed before the end: the withdrawal is cancelled and the coins come back. */
  const handleAbandon = (withdrawal: CryptoWithdrawal) => {
    setFlow({ step: 'form' });
    cancel.mutate(withdrawal.id, {
      onSuccess: ({ message }) => showSuccessToast({ title: 'Withdrawal cancelled', message }),
    });
  };

  /** Without 2FA the e-mailed code is the last step: the withdrawal is queued at once. */
  const handleVerified = (verified: CryptoWithdrawal) => {
    if (info.passcode_required) {
      setFlow({ step: 'two-factor', withdrawal: verified });
      return;
    }
    // The verification modal shows Verify busy and stays open until this answers.
    confirm.mutate(
      { withdrawalId: verified.id },
      {
        onSuccess: ({ message }) => handleDone(message),
        onError: (failure) => {
          handleAbandon(verified);
          reportError(failure, { title: 'Failed' });
        },
      },
    );
  };

  const handleDone = (message: string) => {
    setFlow({ step: 'form' });
    resetForm();
    showSuccessToast({ title: 'Withdrawal requested', message });
  };

  const fee = info.fee;
  const receive = receiveAmount(amount, rules);
  const after = balanceAfter(amount, rules);

  return (
    <>
      <form onSubmit={handleSubmit} noValidate aria-label={`Withdraw ${code}`}>
        <Stack gap="sm">
          {blocker && (
            <Alert color="orange" title="Withdrawals are paused" role="status">
              {blocker}
            </Alert>
          )}
          {errors.form && (
            <Alert color="orange" title={errors.form} role="alert">
              Deposits and withdrawals open once your account is verified and live.
            </Alert>
          )}
          <WithdrawBalanceRows code={code} available={info.available} after={after} />
          <WithdrawDestinationFields
            coin={coin}
            useSaved={useSaved}
            saved={saved}
            savedId={savedId}
            wallet={wallet}
            tag={tag}
            tagRef={tagInput}
            errors={errors}
            isUsable={isUsable}
            onUseSavedChange={(checked) => change('wallet', () => setUseSaved(checked))}
            onSavedIdChange={(value) => change('wallet', () => setSavedId(value))}
            onWalletChange={(value) => change('wallet', () => setWallet(value))}
            onTagChange={(value) => change('xrp_tag', () => setTag(value))}
          />
          <WithdrawAmountField
            coin={coin}
            amount={amount}
            error={errors.amount}
            minimum={info.minimum}
            available={info.available}
            onAmountChange={(value) => change('amount', () => setAmount(value))}
          />
          <WalletOwnerFields
            beneficiaryType={beneficiaryType}
            beneficiaryName={beneficiaryName}
            destinationType={destinationType}
            exchangeName={exchangeName}
            errors={errors}
            onBeneficiaryTypeChange={(value) => change('beneficiary_type', () => setBeneficiaryType(value))}
            onBeneficiaryNameChange={(value) => change('beneficiary_name', () => setBeneficiaryName(value))}
            onDestinationTypeChange={(value) => change('destination_type', () => setDestinationType(value))}
            onExchangeNameChange={(value) => change('exchange_name', () => setExchangeName(value))}
          />
          <Divider />
          <Group justify="space-between" gap="xs">
            <Text size="sm">Withdraw fee</Text>
            <Text size="sm" ff="monospace" data-testid="crypto-withdraw-fee">
              {formatCoinAmount(fee, code)}
            </Text>
          </Group>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              You Will Get
            </Text>
            <Text fw={700} ff="monospace" data-testid="crypto-withdraw-receive">
              {formatCoinAmount(receive, code)}
            </Text>
          </Group>
          <Button type="submit" fullWidth loading={sendVerify.isPending} disabled={blocker !== undefined}>
            Withdraw
          </Button>
          <Alert color="gray" variant="light">
            <Text size="sm">{CRYPTO_WITHDRAW_TEXTS.importantNotice}</Text>
          </Alert>
        </Stack>
      </form>
      {/* Outside the form: React carries a portal's submit event up to the form around it. */}
      <WithdrawVerificationModal
        withdrawal={flow.step === 'verify' ? flow.withdrawal : null}
        isSubmitting={confirm.isPending}
        onClose={() => {
          if (flow.step === 'verify') handleAbandon(flow.withdrawal);
        }}
        onVerified={handleVerified}
      />
      <TwoFactorModal
        withdrawal={flow.step === 'two-factor' ? flow.withdrawal : null}
        canEmailCode={info.email_codes}
        hasAuthenticator={hasAuthenticator}
        onClose={() => {
          if (flow.step === 'two-factor') handleAbandon(flow.withdrawal);
        }}
        onDone={handleDone}
      />
    </>
  );
}

/** The spec's crypto withdraw form (001 section 2) for one coin. */
export function CryptoWithdrawForm({ coin, isLive }: { coin: CoinId; isLive: boolean }) {
  const info = useCryptoWithdrawInfo(coin);

  if (info.isPending)
    return (
      <Stack gap="sm" role="status" aria-label="Loading the withdraw form">
        <Skeleton height={40} />
        <Skeleton height={40} />
        <Skeleton height={36} />
      </Stack>
    );
  if (info.isError)
    return (
      <Alert color="red" title="Failed!" role="alert">
        <Group gap="xs">
          <Text size="sm">The withdraw form could not be loaded.</Text>
          <Button size="compact-sm" variant="light" onClick={() => void info.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  return <WithdrawForm key={coin} coin={coin} info={info.data} isLive={isLive} />;
}
