import { CRYPTO_WITHDRAW_TEXTS, type AdminCryptoWithdrawal } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../../../lib/errors';
import { showSuccessToast } from '../../../../lib/toasts';
import { useSendCryptoPayout } from '../api/decide-crypto-withdrawal';

const TXID_PATTERN = /^[0-9A-Za-z]{16,100}$/;

/**
 * Sending a coin kept in cold storage: the signer signed the exported
 * transaction and broadcast it; staff record the transaction id it gave.
 */
export function SendColdStorageModal({
  withdrawal,
  onClose,
}: {
  withdrawal: AdminCryptoWithdrawal | null;
  onClose: () => void;
}) {
  const send = useSendCryptoPayout();
  const [txid, setTxid] = useState('');
  const [error, setError] = useState<string>();

  const handleClose = () => {
    setTxid('');
    setError(undefined);
    onClose();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!withdrawal) return;
    const value = txid.trim();
    if (!TXID_PATTERN.test(value)) {
      setError(value ? CRYPTO_WITHDRAW_TEXTS.txidInvalid : CRYPTO_WITHDRAW_TEXTS.txidRequired);
      return;
    }
    send.mutate(
      { id: withdrawal.id, txid: value },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: 'Sent', message });
          handleClose();
        },
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status < 500 && appError.code !== 'NOT_FOUND') setError(describeError(appError));
          else reportError(appError, { title: 'Not sent' });
        },
      },
    );
  };

  return (
    <Modal opened={withdrawal !== null} onClose={handleClose} title="Send from cold storage" centered>
      {withdrawal && (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {withdrawal.amount_receive} {withdrawal.asset} to{' '}
              <Text span ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {withdrawal.address}
              </Text>
              . {CRYPTO_WITHDRAW_TEXTS.txidRequired}
            </Text>
            <TextInput
              label="Transaction id"
              description="16 to 100 letters and digits, as the signer gives it."
              value={txid}
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => {
                setTxid(event.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={handleClose}>
                Cancel
              </Button>
              <Button type="submit" color="teal" loading={send.isPending}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
