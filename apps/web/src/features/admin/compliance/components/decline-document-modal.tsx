import { DeclineDocumentBodySchema, type AdminDocument } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { useDeclineDocument } from '../api/decline-document';

type DeclineForm = { note: string };

const NOTE_MAX = 500;

/** Declining needs the note the customer reads as the cause of rejection (in upper case, on their Rejected view). */
export function DeclineDocumentModal({
  userId,
  document,
  onClose,
}: {
  userId: number;
  document: AdminDocument | null;
  onClose: () => void;
}) {
  const decline = useDeclineDocument(userId);
  const form = useForm<DeclineForm>({
    resolver: contractResolver<DeclineForm>(DeclineDocumentBodySchema),
    defaultValues: { note: '' },
  });
  const note = useWatch({ control: form.control, name: 'note' });

  const handleClose = () => {
    form.reset();
    decline.reset();
    onClose();
  };

  const handleSubmit = ({ note: text }: DeclineForm) => {
    if (!document) return;
    decline.mutate(
      { documentId: document.id, note: text },
      {
        onSuccess: (answer) => {
          showSuccessToast({ title: 'Document declined', message: answer.message });
          handleClose();
        },
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, ['note']);
          if (!appError.errors?.note) reportError(appError, { title: 'Not declined' });
        },
      },
    );
  };

  const name = document
    ? `${document.label}${document.director_name ? ` (${document.director_name})` : ''}`
    : '';
  return (
    <Modal opened={document !== null} onClose={handleClose} title={`Decline ${name}`} centered>
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">
            The customer reads this note as the cause of rejection and is asked to upload the document again.
            Write it for them: what is wrong and what to send instead.
          </Text>
          <Textarea
            label="Note to the customer"
            autosize
            minRows={3}
            maxRows={8}
            maxLength={NOTE_MAX}
            data-autofocus
            description={`${note.length} / ${NOTE_MAX}`}
            error={form.formState.errors.note?.message}
            {...form.register('note')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={decline.isPending}>
              Decline document
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
