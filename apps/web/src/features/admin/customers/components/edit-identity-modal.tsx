import { EditIdentityBodySchema, type CustomerProfile, type EditIdentityBody } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../../lib/forms';
import { showSuccessToast } from '../../../../lib/toasts';
import { useEditCustomerIdentity } from '../api/edit-identity';

type IdentityForm = { first_name: string; last_name: string; birthdate: string; reason: string };

const FIELDS = ['first_name', 'last_name', 'birthdate', 'reason'] as const;

type Identity = Omit<IdentityForm, 'reason'>;

/** The reason and the fields that differ from the customer's current details. */
function changesOf(values: IdentityForm, current: Identity): IdentityForm {
  const changed: Partial<IdentityForm> = { reason: values.reason };
  for (const field of ['first_name', 'last_name', 'birthdate'] as const) {
    if (values[field] !== current[field]) changed[field] = values[field];
  }
  return changed as IdentityForm;
}

/**
 * DECISIONS.md: name and date of birth change only through staff, at the
 * customer's request; the reason (what they sent, how it was checked) is kept.
 */
export function EditIdentityModal({
  customer,
  opened,
  onClose,
}: {
  customer: CustomerProfile;
  opened: boolean;
  onClose: () => void;
}) {
  const edit = useEditCustomerIdentity(customer.id);
  const current = {
    first_name: customer.first_name,
    last_name: customer.last_name,
    birthdate: customer.birthdate ?? '',
  };
  const resolveChanges = contractResolver<IdentityForm>(EditIdentityBodySchema);
  const form = useForm<IdentityForm>({
    // Only what changed is checked and sent: the audit log then shows exactly that.
    resolver: (values, context, options) => resolveChanges(changesOf(values, current), context, options),
    values: { ...current, reason: '' },
  });
  const { errors } = form.formState;

  const handleClose = () => {
    form.reset();
    edit.reset();
    onClose();
  };

  // The resolver has already reduced the values to the parsed changes.
  const handleSubmit = (changes: IdentityForm) => {
    edit.mutate(changes as Partial<IdentityForm> as EditIdentityBody, {
      onSuccess: (answer) => {
        showSuccessToast({ title: 'Details changed', message: answer.message });
        handleClose();
      },
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, FIELDS);
        if (!appError.errors) reportError(appError, { title: 'Details not changed' });
      },
    });
  };

  return (
    <Modal opened={opened} onClose={handleClose} title="Edit name or date of birth" centered>
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Only at the customer&apos;s request, with evidence (a passport, a marriage certificate). We e-mail
            the customer that their details changed.
          </Text>
          <TextInput label="First name" error={errors.first_name?.message} {...form.register('first_name')} />
          <TextInput label="Last name" error={errors.last_name?.message} {...form.register('last_name')} />
          <TextInput
            label="Date of birth"
            type="date"
            error={errors.birthdate?.message}
            {...form.register('birthdate')}
          />
          <Textarea
            label="Reason"
            description="What the customer asked and how you checked it. Kept in the audit log."
            autosize
            minRows={2}
            maxLength={500}
            error={errors.reason?.message}
            {...form.register('reason')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" loading={edit.isPending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
