import type { AdminFiatWithdrawal } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../../../lib/errors';
import { formatDecimal, FIAT_DECIMALS } from '../../../../lib/format';
import { showSuccessToast } from '../../../../lib/toasts';
import { useMarkPayoutPaid } from '../api/decide-payout';

/** Records that the bank sent the money, with the bank's payment reference. */
export function MarkPaidModal({
  withdrawal,
  onClose,
}: {
  withdrawal: AdminFiatWithdrawal | null;
  onClose: () => void;
}) {
  const markPaid = useMarkPayoutPaid();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string>();

  const handleClose = () => {
    setReference('');
    setError(undefined);
    onClose();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!withdrawal) return;
    if (!reference.trim()) {
      setError('The payment reference is required.');
      return;
    }
    markPaid.mutate(
      { id: withdrawal.id, paymentReference: reference.trim() },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: 'Marked as paid', message });
          handleClose();
        },
        onError: (failure) => {
          const appError = toAppError(failure);
          if (appError.status < 500 && appError.code !== 'NOT_FOUND') setError(describeError(appError));
          else reportError(appError, { title: 'Not marked as paid' });
        },
      },
    );
  };

  return (
    <Modal opened={withdrawal !== null} onClose={handleClose} title="Mark as paid" centered>
      {withdrawal && (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text size="sm">
              You sent {formatDecimal(withdrawal.amount_receive, FIAT_DECIMALS)} {withdrawal.currency} to{' '}
              {withdrawal.name_of_account}. The customer’s balance is debited and they are told by e-mail.
            </Text>
            <TextInput
              label="Payment reference"
              description="The bank’s reference for the payment."
              value={reference}
              maxLength={100}
              onChange={(event) => {
                setReference(event.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={handleClose}>
                Cancel
              </Button>
              <Button type="submit" color="teal" loading={markPaid.isPending}>
                Mark as paid
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
