import { ReasonBodySchema } from '@florin/contracts';
import type { z } from 'zod';
import { Button, Checkbox, Group, Modal, Stack, Text, Textarea, type MantineColor } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';

type ReasonForm = { reason: string };

export type ReasonModalProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  color?: MantineColor;
  /** What the reason field is called: the audit log keeps it. */
  reasonLabel?: string;
  /** The field's rules and texts when they are another endpoint's ({ reason } in, as its schema words it). */
  schema?: z.ZodType;
  isPending: boolean;
  /** Sends the reason; resolves with the server's message, rejects with its error. */
  onSubmit: (reason: string) => Promise<{ message: string }>;
  successTitle: string;
  errorTitle: string;
  /** A fact staff must confirm before the action can be sent (a box to tick), when there is one. */
  acknowledgement?: string;
};

/**
 * A confirmation that asks why: staff actions on an account keep their
 * reason in the audit log. A refused reason shows under the field; any
 * other failure goes through the one error handler.
 */
export function ReasonModal(props: ReasonModalProps) {
  const form = useForm<ReasonForm>({
    resolver: contractResolver<ReasonForm>(props.schema ?? ReasonBodySchema),
    defaultValues: { reason: '' },
  });
  const [acknowledged, setAcknowledged] = useState(false);

  const handleClose = () => {
    form.reset();
    setAcknowledged(false);
    props.onClose();
  };

  const handleSubmit = async ({ reason }: ReasonForm) => {
    try {
      const answer = await props.onSubmit(reason);
      showSuccessToast({ title: props.successTitle, message: answer.message });
      handleClose();
    } catch (error) {
      const appError = toAppError(error);
      markFieldErrors(appError, form.setError, ['reason']);
      if (!appError.errors?.reason) reportError(appError, { title: props.errorTitle });
    }
  };

  return (
    <Modal opened={props.opened} onClose={handleClose} title={props.title} centered>
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">{props.description}</Text>
          <Textarea
            label={props.reasonLabel ?? 'Reason'}
            description="Kept in the audit log."
            autosize
            minRows={3}
            maxRows={6}
            maxLength={500}
            data-autofocus
            error={form.formState.errors.reason?.message}
            {...form.register('reason')}
          />
          {props.acknowledgement && (
            <Checkbox
              label={props.acknowledgement}
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={props.color}
              loading={props.isPending}
              disabled={props.acknowledgement !== undefined && !acknowledged}
            >
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
