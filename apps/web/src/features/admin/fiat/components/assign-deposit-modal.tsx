import type { AdminFiatDeposit } from '@florin/contracts';
import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError, reportError, toAppError } from '../../../../lib/errors';
import { formatDecimal, FIAT_DECIMALS } from '../../../../lib/format';
import { showSuccessToast } from '../../../../lib/toasts';
import { useAssignDeposit } from '../api/resolve-deposit';

type AssignDepositModalProps = { deposit: AdminFiatDeposit | null; onClose: () => void };

/** Credits a transfer in suspense to the customer staff found for it, with the reason kept in the audit log. */
export function AssignDepositModal({ deposit, onClose }: AssignDepositModalProps) {
  const assign = useAssignDeposit();
  const [userId, setUserId] = useState<string | number>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ user_id?: string; reason?: string }>({});

  const handleClose = () => {
    setUserId('');
    setReason('');
    setErrors({});
    onClose();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!deposit) return;
    const id = Number(userId);
    const next = {
      user_id: Number.isInteger(id) && id > 0 ? undefined : 'Enter the customer’s id (a whole number).',
      reason: reason.trim() ? undefined : 'Please give the reason.',
    };
    setErrors(next);
    if (next.user_id || next.reason) return;
    assign.mutate(
      { id: deposit.id, userId: id, reason: reason.trim() },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: 'Transfer assigned', message });
          handleClose();
        },
        onError: (error) => {
          const appError = toAppError(error);
          if (appError.errors) {
            setErrors({ user_id: appError.errors.user_id?.[0], reason: appError.errors.reason?.[0] });
            return;
          }
          if (
            appError.code === 'NOT_FOUND' ||
            appError.code === 'CONFLICT' ||
            appError.code === 'BAD_REQUEST'
          ) {
            setErrors({ user_id: describeError(appError) });
            return;
          }
          reportError(appError, { title: 'Not assigned' });
        },
      },
    );
  };

  return (
    <Modal opened={deposit !== null} onClose={handleClose} title="Assign to a customer" centered>
      {deposit && (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Credit {formatDecimal(deposit.amount, FIAT_DECIMALS)} {deposit.currency} from “
              {deposit.payer_name}” (reference “{deposit.reference || 'none'}”) to a customer. Check the payer
              is the customer first.
            </Text>
            <NumberInput
              label="Customer id"
              description="The number in the customer’s back-office address."
              allowDecimal={false}
              allowNegative={false}
              hideControls
              value={userId}
              onChange={setUserId}
              error={errors.user_id}
              data-autofocus
            />
            <Textarea
              label="Reason"
              description="Kept in the audit log."
              autosize
              minRows={2}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              error={errors.reason}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={handleClose}>
                Cancel
              </Button>
              <Button type="submit" loading={assign.isPending}>
                Assign and credit
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
