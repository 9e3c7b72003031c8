import { AUTH_TEXTS, ChangePasswordBodySchema, requestEmailChange } from '@florin/contracts';
import { Button, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PasswordField } from '../../components/password-field';
import { contractResolver } from '../../lib/forms';
import { showSuccessToast } from '../../lib/toasts';
import { useUpdatePassword, type ChangePasswordInput } from './api/change-password';
import { useAskToChangeEmail, type EmailChangeInput } from './api/request-email-change';
import { reportSettingsFormError } from './settings-errors';

const PASSWORD_FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMAIL_FIELDS = ['email', 'password'] as const;

const passwordResolver = contractResolver<ChangePasswordInput>(ChangePasswordBodySchema, {
  confirm: ['password', 'password_confirmation', AUTH_TEXTS.passwordMismatch],
});

const emailResolver = contractResolver<EmailChangeInput>(
  requestEmailChange.body.extend({
    password: z.string().min(1, 'The current password field is required.').max(200),
  }),
);

function ChangePasswordForm() {
  const update = useUpdatePassword();
  const form = useForm<ChangePasswordInput>({
    resolver: passwordResolver,
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    update.mutate(values, {
      onSuccess: ({ message }) => {
        form.reset();
        showSuccessToast({ title: 'Password changed', message });
      },
      onError: (error) => reportSettingsFormError(error, form.setError, PASSWORD_FIELDS),
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-labelledby="change-password-title">
      <Stack gap="md" maw={420}>
        <Stack gap={4}>
          <Title order={2} fz="lg" id="change-password-title">
            Change password
          </Title>
          <Text size="sm" c="dimmed">
            Changing your password signs you out on every other device.
          </Text>
        </Stack>
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          {...form.register('current_password')}
        />
        <PasswordField
          label="New Password"
          description="At least 8 characters"
          autoComplete="new-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...form.register('password_confirmation')}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Change Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChangeEmailForm() {
  const ask = useAskToChangeEmail();
  const form = useForm<EmailChangeInput>({
    resolver: emailResolver,
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    ask.mutate(values, {
      onSuccess: ({ message }) => {
        form.reset();
        showSuccessToast({ title: 'Check your new inbox', message });
      },
      onError: (error) => reportSettingsFormError(error, form.setError, EMAIL_FIELDS),
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-labelledby="change-email-title">
      <Stack gap="md" maw={420}>
        <Stack gap={4}>
          <Title order={2} fz="lg" id="change-email-title">
            Change email
          </Title>
          <Text size="sm" c="dimmed">
            We send a confirmation link to the new address; your email changes once you open it.
          </Text>
        </Stack>
        <TextInput
          label="New Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label="Password"
          description="Your current password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Group>
          <Button type="submit" loading={ask.isPending}>
            Change Email
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Password tab (spec 001 section 2): the password change, and the e-mail change (DECISIONS.md). */
export function PasswordTab() {
  return (
    <Stack gap="xl">
      <ChangePasswordForm />
      <Divider />
      <ChangeEmailForm />
    </Stack>
  );
}
