import { WHITELIST_TEXTS, type WhitelistedWallet } from '@florin/contracts';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PasscodeField } from '../../../components/passcode-field';
import { toAppError } from '../../../lib/errors';
import { showSuccessToast } from '../../../lib/toasts';
import { useHasCodeExpired } from '../../../lib/use-now-passing';
import { useConfirmWalletRemoval, useRequestWalletRemovalCode } from '../api/remove-whitelisted-wallet';
import { reportWalletRemovalError } from '../whitelist-errors';

type WalletRemovalModalProps = {
  /** The address being removed; its removal code has just been e-mailed. Null: closed. */
  wallet: WhitelistedWallet | null;
  onClose: () => void;
};

/**
 * Spec 001 §4: the e-mailed 6-digit code, submitted as soon as the sixth
 * digit is typed; an expired code offers Resend.
 */
export function WalletRemovalModal({ wallet, onClose }: WalletRemovalModalProps) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [isExpired, setIsExpired] = useState(false);
  // The code was mailed as the modal opened for this address, or when it was last resent.
  const [codeSentAt, setCodeSentAt] = useState<string | null>(null);
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  if ((wallet?.id ?? null) !== openedFor) {
    setOpenedFor(wallet?.id ?? null);
    setCodeSentAt(wallet ? new Date().toISOString() : null);
  }
  const hasCodeExpired = useHasCodeExpired(codeSentAt);
  const message = problem ?? (hasCodeExpired ? WHITELIST_TEXTS.codeExpired : null);
  const confirm = useConfirmWalletRemoval();
  const resend = useRequestWalletRemovalCode();

  const handleClose = () => {
    setCode('');
    setProblem(null);
    setIsExpired(false);
    confirm.reset();
    onClose();
  };

  const handleSubmit = (verifyCode: string) => {
    if (!wallet) return;
    setProblem(null);
    confirm.mutate(
      { id: wallet.id, verify_code: verifyCode },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: 'Address removed', message: message || WHITELIST_TEXTS.walletRemoved });
          handleClose();
        },
        onError: (error) => {
          setCode('');
          const appError = toAppError(error);
          // A wrong or expired code is said here, beside the digits; anything else is a failed removal.
          if (appError.code === 'VERIFICATION_FAILED' || appError.code === 'VALIDATION_FAILED') {
            setProblem(appError.message);
            setIsExpired(appError.message === WHITELIST_TEXTS.codeExpired);
            return;
          }
          reportWalletRemovalError(appError);
        },
      },
    );
  };

  const handleResend = () => {
    if (!wallet) return;
    resend.mutate(wallet.id, {
      onSuccess: () => {
        setProblem(null);
        setIsExpired(false);
        setCodeSentAt(new Date().toISOString());
        showSuccessToast({ title: 'Code sent', message: WHITELIST_TEXTS.removalCodeSent });
      },
      onError: reportWalletRemovalError,
    });
  };

  return (
    <Modal opened={wallet !== null} onClose={handleClose} title="Remove whitelisted address" centered>
      {wallet && (
        <Stack gap="md">
          <Text size="sm">
            {WHITELIST_TEXTS.removalCodeSent} It removes <strong>{wallet.label}</strong> (
            {wallet.coin_id.toUpperCase()}, <span style={{ fontFamily: 'monospace' }}>{wallet.address}</span>
            ).
          </Text>
          <PasscodeField
            label="Verification code"
            value={code}
            onChange={(value) => {
              setCode(value);
              if (value) setProblem(null);
            }}
            onSubmit={handleSubmit}
            isSubmitting={confirm.isPending}
            hasError={message !== null}
          />
          {message && (
            <Alert color="red" variant="light" role="alert" p="xs">
              <Group justify="space-between" gap="xs">
                <Text size="sm">{message}</Text>
                {(isExpired || hasCodeExpired) && (
                  <Button size="compact-sm" variant="light" onClick={handleResend} loading={resend.isPending}>
                    Resend
                  </Button>
                )}
              </Group>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose} disabled={confirm.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
