import { FalsePositiveBodySchema, type SanctionsHit } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { useMarkFalsePositive } from '../api/mark-false-positive';

type NoteForm = { note: string };

/**
 * Why the match is not the listed party, kept with the hit and in the audit
 * log. A refused note shows under the field; any other failure goes through
 * the one error handler. The hold stays: it is lifted on the customer's page.
 */
export function FalsePositiveModal({ hit, onClose }: { hit: SanctionsHit | null; onClose: () => void }) {
  const mark = useMarkFalsePositive(hit?.id ?? 0);
  const form = useForm<NoteForm>({
    resolver: contractResolver<NoteForm>(FalsePositiveBodySchema),
    defaultValues: { note: '' },
  });

  const handleClose = () => {
    form.reset();
    onClose();
  };

  const handleSubmit = async ({ note }: NoteForm) => {
    try {
      const answer = await mark.mutateAsync(note);
      showSuccessToast({ title: 'False positive recorded', message: answer.message });
      handleClose();
    } catch (error) {
      const appError = toAppError(error);
      markFieldErrors(appError, form.setError, ['note']);
      if (!appError.errors?.note) reportError(appError, { title: 'The hit could not be updated' });
    }
  };

  return (
    <Modal opened={hit !== null} onClose={handleClose} title="Mark as a false positive" centered>
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">
            {hit ? `${hit.subject_name} is not ${hit.listed_name} (group ${hit.group_id}). ` : ''}
            The account stays on hold until you lift the hold on the customer&apos;s page.
          </Text>
          <Textarea
            label="Why is this not the listed person or entity?"
            description="Kept with the hit and in the audit log."
            autosize
            minRows={3}
            maxRows={6}
            maxLength={500}
            data-autofocus
            error={form.formState.errors.note?.message}
            {...form.register('note')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mark.isPending}>
              Mark false positive
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
