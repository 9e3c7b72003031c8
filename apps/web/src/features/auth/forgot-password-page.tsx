import { forgotPassword } from '@florin/contracts';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { reportError, statusText, toAppError } from '../../lib/errors';
import { contractResolver } from '../../lib/forms';
import { PATHS } from '../../lib/paths';
import { showErrorToast } from '../../lib/toasts';
import { useRequestPasswordReset } from './api/forgot-password';
import { AuthCard } from './components/auth-card';

type ForgotPasswordForm = { email: string };

/** Spec 002 section 8, kept by DECISIONS.md for every failure but a 5xx (rate limit, malformed input). */
const RESET_REQUEST_FAILED = "Wrong credentials or user doesn't exist";

const resolver = contractResolver<ForgotPasswordForm>(forgotPassword.body);

/** `/forgot-password`: asks for a reset link without saying whether the address has an account. */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const form = useForm<ForgotPasswordForm>({ resolver, defaultValues: { email: '' } });

  const handleSubmit = form.handleSubmit(({ email }) => {
    request.mutate(email, {
      onError: (error) => {
        const appError = toAppError(error);
        if (appError.status >= 500) reportError(appError);
        else showErrorToast({ title: statusText(appError.status), message: RESET_REQUEST_FAILED });
      },
    });
  });

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email address and we will send you a link to choose a new password."
    >
      {request.isSuccess && (
        <Alert color="teal" variant="light" role="status">
          {request.data.message}
        </Alert>
      )}
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" size="md" fullWidth loading={request.isPending}>
            Reset
          </Button>
          <Text size="sm" ta="center">
            Remembered it?{' '}
            <Anchor component={Link} to={PATHS.login}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
