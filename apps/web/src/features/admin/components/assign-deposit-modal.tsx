import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { describeError, reportError, toAppError } from '../../../lib/errors';
import { showSuccessToast } from '../../../lib/toasts';

export type AssignDepositInput = { id: string; userId: number; reason: string };

type AssignDepositModalProps = {
  /** The deposit in suspense being assigned; null keeps the modal closed. */
  depositId: string | null;
  /** What is credited, in the deposit's own terms (a bank transfer, a chain payment). */
  summary: ReactNode;
  assign: UseMutationResult<{ message: string }, unknown, AssignDepositInput>;
  successTitle: string;
  onClose: () => void;
};

/**
 * Credits a deposit in suspense (a bank transfer or a chain payment) to the
 * customer staff found for it, with the reason kept in the audit log.
 */
export function AssignDepositModal({
  depositId,
  summary,
  assign,
  successTitle,
  onClose,
}: AssignDepositModalProps) {
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
    if (depositId === null) return;
    const id = Number(userId);
    const next = {
      user_id: Number.isInteger(id) && id > 0 ? undefined : 'Enter the customer’s id (a whole number).',
      reason: reason.trim() ? undefined : 'Please give the reason.',
    };
    setErrors(next);
    if (next.user_id || next.reason) return;
    assign.mutate(
      { id: depositId, userId: id, reason: reason.trim() },
      {
        onSuccess: ({ message }) => {
          showSuccessToast({ title: successTitle, message });
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
    <Modal opened={depositId !== null} onClose={handleClose} title="Assign to a customer" centered>
      {depositId !== null && (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {summary}
            </Text>
            <NumberInput
              label="Customer id"
              description="The number in the customer’s back-office address."
              allowDecimal={false}
              allowNegative={false}
              hideControls
              value={userId}
              onChange={(value) => {
                setUserId(value);
                setErrors((current) => ({ ...current, user_id: undefined }));
              }}
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
