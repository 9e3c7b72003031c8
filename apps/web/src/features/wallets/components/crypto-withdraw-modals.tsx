import { CRYPTO_WITHDRAW_TEXTS, type CryptoWithdrawal } from '@florin/contracts';
import { Button, Group, Modal, Paper, PinInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { SendCodeButton } from '../../../components/send-code-button';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { useHasCodeExpired } from '../../../lib/use-now-passing';
import { useConfirmCryptoWithdraw } from '../api/confirm-crypto-withdraw';
import { useResendWithdrawCode } from '../api/resend-withdraw-code';
import { useVerifyWithdraw } from '../api/verify-withdraw';
import { formatCoinAmount } from '../crypto-amounts';

const CODE_LENGTH = 6;
/** The spec's pause between the sixth 2FA digit and the automatic submit (001 section 9). */
export const TWO_FACTOR_AUTO_SUBMIT_MS = 700;

function CodeDigits({
  label,
  value,
  onChange,
  onComplete,
  isDisabled,
  hasError,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onComplete?: (value: string) => void;
  isDisabled: boolean;
  hasError: boolean;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} aria-hidden>
        {label}
      </Text>
      <PinInput
        length={CODE_LENGTH}
        type="number"
        oneTimeCode
        autoFocus
        size="md"
        gap="xs"
        placeholder=""
        value={value}
        onChange={onChange}
        onComplete={onComplete}
        disabled={isDisabled}
        error={hasError}
        aria-label={label}
        getInputProps={(index) => ({ 'aria-label': `${label}, digit ${index + 1} of ${CODE_LENGTH}` })}
      />
    </Stack>
  );
}

function SummaryRow({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={600} ff="monospace" ta="right" data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * What the code approves, restated from the held withdrawal itself (not the
 * form): the whole address, so a swapped one (clipboard malware) shows
 * before the coins go, the tag, the amount, the fee and what arrives.
 */
function WithdrawalSummary({ withdrawal }: { withdrawal: CryptoWithdrawal }) {
  const code = withdrawal.coin_id.toUpperCase();
  return (
    <Paper withBorder radius="md" p="sm" aria-label="The withdrawal you are approving" role="group">
      <Stack gap={6}>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            To {code} address
          </Text>
          <Text
            size="sm"
            fw={700}
            ff="monospace"
            style={{ overflowWrap: 'anywhere' }}
            data-testid="withdrawal-summary-address"
          >
            {withdrawal.address}
          </Text>
        </Stack>
        {withdrawal.tag !== null && (
          <SummaryRow label="Destination tag" testId="withdrawal-summary-tag">
            {withdrawal.tag}
          </SummaryRow>
        )}
        <SummaryRow label="Amount" testId="withdrawal-summary-amount">
          {formatCoinAmount(withdrawal.amount, code, { exact: true })}
        </SummaryRow>
        <SummaryRow label="Withdraw fee" testId="withdrawal-summary-fee">
          {formatCoinAmount(withdrawal.fee, code, { exact: true })}
        </SummaryRow>
        <SummaryRow label="You Will Get" testId="withdrawal-summary-receive">
          {formatCoinAmount(withdrawal.amount_receive, code, { exact: true })}
        </SummaryRow>
      </Stack>
    </Paper>
  );
}

/**
 * 'Withdraw Verification' (spec 001 section 2): the 6-digit code e-mailed
 * for this withdrawal. A refusal reads inline; 'Verification Code Expired'
 * brings the Resend button. Without 2FA the accepted code is the last step:
 * while the form sends the withdrawal (`isSubmitting`) Verify stays busy and
 * the modal cannot be closed, as a close would cancel what is being sent.
 */
export function WithdrawVerificationModal({
  withdrawal,
  isSubmitting,
  onVerified,
  onClose,
}: {
  withdrawal: CryptoWithdrawal | null;
  isSubmitting: boolean;
  onVerified: (withdrawal: CryptoWithdrawal) => void;
  onClose: () => void;
}) {
  const verify = useVerifyWithdraw();
  const isBusy = verify.isPending || isSubmitting;
  return (
    <Modal
      opened={withdrawal !== null}
      onClose={() => {
        if (!isBusy) onClose();
      }}
      title={CRYPTO_WITHDRAW_TEXTS.verificationTitle}
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close and cancel the withdrawal', disabled: isBusy }}
    >
      {withdrawal && (
        <VerificationBody
          key={withdrawal.id}
          withdrawal={withdrawal}
          verify={verify}
          isBusy={isBusy}
          onVerified={onVerified}
        />
      )}
    </Modal>
  );
}

function VerificationBody({
  withdrawal,
  verify,
  isBusy,
  onVerified,
}: {
  withdrawal: CryptoWithdrawal;
  verify: ReturnType<typeof useVerifyWithdraw>;
  isBusy: boolean;
  onVerified: (withdrawal: CryptoWithdrawal) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string>(CRYPTO_WITHDRAW_TEXTS.codeSent);
  const resend = useResendWithdrawCode();
  // The code was mailed as the withdrawal was requested, just before this opened, or when it was last resent.
  const [codeSentAt, setCodeSentAt] = useState(() => new Date().toISOString());
  const hasCodeExpired = useHasCodeExpired(codeSentAt);
  const isExpired = hasCodeExpired || error === CRYPTO_WITHDRAW_TEXTS.codeExpired;
  const shownError = error ?? (hasCodeExpired ? CRYPTO_WITHDRAW_TEXTS.codeExpired : null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    if (code.length !== CODE_LENGTH) {
      setError('Enter the 6-digit code.');
      return;
    }
    verify.mutate(
      { withdrawalId: withdrawal.id, code },
      {
        onSuccess: ({ data }) => onVerified(data),
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status === 400 || appError.status === 422) {
            setCode('');
            setError(appError.errors?.verify_code?.[0] ?? appError.message);
            return;
          }
          reportError(appError, { title: 'Failed' });
        },
      },
    );
  };

  const handleResend = () => {
    resend.mutate(withdrawal.id, {
      onSuccess: ({ message }) => {
        setError(null);
        setCode('');
        setCodeSentAt(new Date().toISOString());
        setNotice(message || CRYPTO_WITHDRAW_TEXTS.codeResent);
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <WithdrawalSummary withdrawal={withdrawal} />
        <Text size="sm">{notice}</Text>
        <CodeDigits
          label="Verification code"
          value={code}
          onChange={(value) => {
            setCode(value);
            if (error && !isExpired) setError(null);
          }}
          isDisabled={isBusy}
          hasError={shownError !== null}
        />
        {shownError && (
          <Text size="sm" c="red.8" role="alert">
            {shownError}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap-reverse">
          {isExpired ? (
            <Button variant="light" onClick={handleResend} loading={resend.isPending} disabled={isBusy}>
              Resend
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={isBusy} aria-busy={isBusy}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * 'Two Factor Authentication' (spec 001 sections 2 and 4): the authenticator's
 * (or an e-mailed) 6-digit code, submitted by itself 700 ms after the sixth
 * digit; then the withdrawal is queued for staff.
 */
export function TwoFactorModal({
  withdrawal,
  canEmailCode,
  hasAuthenticator,
  onDone,
  onClose,
}: {
  withdrawal: CryptoWithdrawal | null;
  /** Send 2FA: staff switched e-mailed codes on (platform_2fa_mobile). */
  canEmailCode: boolean;
  /** The customer has an authenticator app; without one e-mailed codes are their only second factor. */
  hasAuthenticator: boolean;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const confirm = useConfirmCryptoWithdraw();
  return (
    <Modal
      opened={withdrawal !== null}
      onClose={() => {
        if (!confirm.isPending) onClose();
      }}
      title={CRYPTO_WITHDRAW_TEXTS.twoFactorTitle}
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close and cancel the withdrawal', disabled: confirm.isPending }}
    >
      {withdrawal && (
        <TwoFactorBody
          key={withdrawal.id}
          withdrawal={withdrawal}
          canEmailCode={canEmailCode}
          hasAuthenticator={hasAuthenticator}
          confirm={confirm}
          onDone={onDone}
        />
      )}
    </Modal>
  );
}

function twoFactorPrompt(canEmailCode: boolean, hasAuthenticator: boolean): string {
  if (!canEmailCode) return 'Enter the 6-digit code from your authenticator app.';
  if (!hasAuthenticator) return 'Press Send 2FA and enter the 6-digit code we e-mail you.';
  return 'Enter the 6-digit code from your authenticator app, or press Send 2FA for a code by e-mail.';
}

function TwoFactorBody({
  withdrawal,
  canEmailCode,
  hasAuthenticator,
  confirm,
  onDone,
}: {
  withdrawal: CryptoWithdrawal;
  canEmailCode: boolean;
  hasAuthenticator: boolean;
  confirm: ReturnType<typeof useConfirmCryptoWithdraw>;
  onDone: (message: string) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clearTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };

  // Closed or left before the 700 ms are up: nothing is sent.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const submit = (passcode: string) => {
    clearTimer();
    if (confirm.isPending) return;
    if (passcode.length !== CODE_LENGTH) {
      setError(CRYPTO_WITHDRAW_TEXTS.passcodeRequired);
      return;
    }
    confirm.mutate(
      { withdrawalId: withdrawal.id, passcode },
      {
        onSuccess: ({ message }) => onDone(message),
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status === 400 || appError.status === 422) {
            setCode('');
            setError(appError.errors?.passcode?.[0] ?? describeError(appError));
            return;
          }
          reportError(appError, { title: 'Failed' });
        },
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit(code);
      }}
      noValidate
    >
      <Stack gap="sm">
        <WithdrawalSummary withdrawal={withdrawal} />
        <Text size="sm">{twoFactorPrompt(canEmailCode, hasAuthenticator)}</Text>
        <CodeDigits
          label="2FA code"
          value={code}
          onChange={(value) => {
            clearTimer();
            setCode(value);
            if (error) setError(null);
          }}
          onComplete={(value) => {
            clearTimer();
            timer.current = setTimeout(() => submit(value), TWO_FACTOR_AUTO_SUBMIT_MS);
          }}
          isDisabled={confirm.isPending}
          hasError={error !== null}
        />
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap-reverse">
          {canEmailCode ? <SendCodeButton purpose="Crypto Withdraw(2fa)" size="sm" /> : <span />}
          <Button type="submit" loading={confirm.isPending} aria-busy={confirm.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
