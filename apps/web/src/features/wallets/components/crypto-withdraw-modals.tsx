import { CRYPTO_WITHDRAW_TEXTS, type CryptoWithdrawal } from '@florin/contracts';
import { Button, Group, Modal, PinInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { useRequestTwoFactorCode } from '../../../lib/request-two-factor-code';
import { showSuccessToast } from '../../../lib/toasts';
import { useConfirmCryptoWithdraw } from '../api/confirm-crypto-withdraw';
import { useResendWithdrawCode } from '../api/resend-withdraw-code';
import { useVerifyWithdraw } from '../api/verify-withdraw';

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

/**
 * 'Withdraw Verification' (spec 001 section 2): the 6-digit code e-mailed
 * for this withdrawal. A refusal reads inline; 'Verification Code Expired'
 * brings the Resend button.
 */
export function WithdrawVerificationModal({
  withdrawal,
  onVerified,
  onClose,
}: {
  withdrawal: CryptoWithdrawal | null;
  onVerified: (withdrawal: CryptoWithdrawal) => void;
  onClose: () => void;
}) {
  const verify = useVerifyWithdraw();
  return (
    <Modal
      opened={withdrawal !== null}
      onClose={() => {
        if (!verify.isPending) onClose();
      }}
      title={CRYPTO_WITHDRAW_TEXTS.verificationTitle}
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close and cancel the withdrawal' }}
    >
      {withdrawal && (
        <VerificationBody
          key={withdrawal.id}
          withdrawal={withdrawal}
          verify={verify}
          onVerified={onVerified}
        />
      )}
    </Modal>
  );
}

function VerificationBody({
  withdrawal,
  verify,
  onVerified,
}: {
  withdrawal: CryptoWithdrawal;
  verify: ReturnType<typeof useVerifyWithdraw>;
  onVerified: (withdrawal: CryptoWithdrawal) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string>(CRYPTO_WITHDRAW_TEXTS.codeSent);
  const resend = useResendWithdrawCode();
  const isExpired = error === CRYPTO_WITHDRAW_TEXTS.codeExpired;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (verify.isPending) return;
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
        setNotice(message || CRYPTO_WITHDRAW_TEXTS.codeResent);
      },
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{notice}</Text>
        <CodeDigits
          label="Verification code"
          value={code}
          onChange={(value) => {
            setCode(value);
            if (error && !isExpired) setError(null);
          }}
          isDisabled={verify.isPending}
          hasError={error !== null}
        />
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap-reverse">
          {isExpired ? (
            <Button variant="light" onClick={handleResend} loading={resend.isPending}>
              Resend
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={verify.isPending}>
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
  onDone,
  onClose,
}: {
  withdrawal: CryptoWithdrawal | null;
  canEmailCode: boolean;
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
      closeButtonProps={{ 'aria-label': 'Close and cancel the withdrawal' }}
    >
      {withdrawal && (
        <TwoFactorBody
          key={withdrawal.id}
          withdrawal={withdrawal}
          canEmailCode={canEmailCode}
          confirm={confirm}
          onDone={onDone}
        />
      )}
    </Modal>
  );
}

function TwoFactorBody({
  withdrawal,
  canEmailCode,
  confirm,
  onDone,
}: {
  withdrawal: CryptoWithdrawal;
  canEmailCode: boolean;
  confirm: ReturnType<typeof useConfirmCryptoWithdraw>;
  onDone: (message: string) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const requestCode = useRequestTwoFactorCode();
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

  const handleSendCode = () =>
    requestCode.mutate('Crypto Withdraw(2fa)', {
      onSuccess: ({ message }) => showSuccessToast({ title: 'Code sent', message }),
      onError: (failure) => reportError(failure, { title: 'Failed' }),
    });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit(code);
      }}
      noValidate
    >
      <Stack gap="sm">
        <Text size="sm">
          {canEmailCode
            ? 'Enter the 6-digit code from your authenticator app, or press Send 2FA for a code by e-mail.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
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
          {canEmailCode ? (
            <Button variant="light" onClick={handleSendCode} loading={requestCode.isPending}>
              Send 2FA
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={confirm.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
