import { CreateStaffBodySchema, type CreateStaffBody } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { reportError, toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { showSuccessToast } from '../../../lib/toasts';
import { useAddStaffMember } from '../api/create-staff';
import { RoleSelect } from './role-select';

type AddStaffForm = { email: string; role: CreateStaffBody['role'] | null };

/** A new member: their e-mail and role. They set their own password from the e-mailed link. */
export function AddStaffModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const add = useAddStaffMember();
  const form = useForm<AddStaffForm>({
    resolver: contractResolver<AddStaffForm>(CreateStaffBodySchema),
    defaultValues: { email: '', role: null },
  });
  const { errors } = form.formState;

  const handleClose = () => {
    form.reset();
    add.reset();
    onClose();
  };

  const handleSubmit = (values: AddStaffForm) => {
    if (!values.role) return;
    add.mutate(
      { email: values.email, role: values.role },
      {
        onSuccess: (answer) => {
          showSuccessToast({ title: 'Staff member added', message: answer.message });
          handleClose();
        },
        onError: (error) => {
          const appError = toAppError(error);
          markFieldErrors(appError, form.setError, ['email', 'role']);
          if (!appError.errors) reportError(appError, { title: 'Staff member not added' });
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={handleClose} title="Add staff member" centered>
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            We e-mail them a link to set their password. At their first sign-in they set up two-factor
            authentication.
          </Text>
          <TextInput
            label="Email"
            type="email"
            autoComplete="off"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <RoleSelect
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                placeholder="Choose a role"
                error={errors.role ? 'Choose a role.' : undefined}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add staff member
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
