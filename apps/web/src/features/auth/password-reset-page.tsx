import { AUTH_TEXTS, ResetPasswordBodySchema } from '@florin/contracts';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { PasswordField } from '../../components/password-field';
import { toAppError } from '../../lib/errors';
import { contractResolver } from '../../lib/forms';
import { PATHS } from '../../lib/paths';
import { showErrorToast, showSuccessToast } from '../../lib/toasts';
import { useSetNewPassword, type ResetPasswordInput } from './api/reset-password';
import { AuthCard } from './components/auth-card';
import { isResetTokenWellFormed, resetTokenFrom } from './reset-token';

const resolver = contractResolver<ResetPasswordInput>(ResetPasswordBodySchema, {
  confirm: ['password', 'password_confirmation', AUTH_TEXTS.passwordMismatch],
});

/** `/password-reset?<token>`, the link in the reset e-mail. */
export function PasswordResetPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = resetTokenFrom(location.search);
  const isLinkUsable = isResetTokenWellFormed(token);
  const reset = useSetNewPassword();
  const form = useForm<ResetPasswordInput>({
    resolver,
    // The token is no input of its own: it rides along in the values the contract checks.
    defaultValues: { email: '', password: '', password_confirmation: '', token },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    reset.mutate(values, {
      onSuccess: () => {
        showSuccessToast({ title: 'Success!', message: AUTH_TEXTS.passwordReset });
        void navigate(PATHS.login, { replace: true });
      },
      onError: (error) => {
        // Spec 002 section 8: the first validation error, else the message, under "Error".
        const appError = toAppError(error);
        const first = Object.values(appError.errors ?? {}).flat()[0];
        showErrorToast({ title: 'Error', message: first ?? appError.message });
      },
    });
  });

  return (
    <AuthCard title="Choose a new password" description="Enter your email address and your new password.">
      {!isLinkUsable && (
        <Alert color="red" variant="light" role="alert">
          {AUTH_TEXTS.resetTokenInvalid}{' '}
          <Anchor component={Link} to={PATHS.forgotPassword} inherit>
            Request a new link
          </Anchor>
        </Alert>
      )}
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <PasswordField
            label="New Password"
            description="At least 8 characters"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <PasswordField
            label="Confirm Password"
            autoComplete="new-password"
            error={errors.password_confirmation?.message}
            {...form.register('password_confirmation')}
          />
          <Button type="submit" size="md" fullWidth loading={reset.isPending} disabled={!isLinkUsable}>
            Submit
          </Button>
          <Text size="sm" ta="center">
            No account yet?{' '}
            <Anchor component={Link} to={PATHS.register}>
              Register Now
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
