import {
  ADMIN_TEXTS,
  AdminSetPasswordBodySchema,
  STAFF_PASSWORD_MIN_LENGTH,
  type AdminSetPasswordBody,
} from '@florin/contracts';
import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { PasswordField } from '../../components/password-field';
import { describeError, toAppError } from '../../lib/errors';
import { contractResolver, markFieldErrors } from '../../lib/forms';
import type { AdminLoginState } from './admin-layout';
import { ADMIN_PATHS } from './admin-paths';
import { useSetStaffPassword } from './api/set-password';
import { AdminAuthCard } from './components/admin-auth-card';

/**
 * `/admin/set-password#<token>`: the link a new staff member (or one who
 * forgot their password) is e-mailed. The token rides in the fragment, which
 * the browser never sends to the server or in a Referer.
 */
export function AdminSetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = location.hash.replace(/^#/, '');
  const [failure, setFailure] = useState<string | null>(token ? null : ADMIN_TEXTS.passwordLinkInvalid);
  const setPassword = useSetStaffPassword();
  const form = useForm<AdminSetPasswordBody>({
    resolver: contractResolver<AdminSetPasswordBody>(AdminSetPasswordBodySchema, {
      confirm: ['password', 'password_confirmation', ADMIN_TEXTS.passwordMismatch],
    }),
    defaultValues: { token, password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;

  const handleSubmit = (values: AdminSetPasswordBody) => {
    setFailure(null);
    setPassword.mutate(values, {
      onSuccess: (answer) => {
        const state: AdminLoginState = { notice: answer.message };
        void navigate(ADMIN_PATHS.login, { replace: true, state });
      },
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, ['password', 'password_confirmation']);
        const tokenProblem = appError.errors?.token?.[0];
        if (tokenProblem || !appError.errors) setFailure(tokenProblem ?? describeError(appError));
      },
    });
  };

  return (
    <AdminAuthCard
      title="Set your password"
      description={`Choose a password of at least ${STAFF_PASSWORD_MIN_LENGTH} characters for the Florin back office.`}
    >
      {(failure ?? errors.token?.message) && (
        <Alert color="red" variant="light" role="alert">
          {failure ?? errors.token?.message}
        </Alert>
      )}
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <PasswordField
            label="New password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            error={errors.password_confirmation?.message}
            {...form.register('password_confirmation')}
          />
          <Button type="submit" size="md" fullWidth loading={setPassword.isPending} disabled={!token}>
            Set password
          </Button>
          <Anchor component={Link} to={ADMIN_PATHS.login} size="sm">
            Back to the staff sign-in
          </Anchor>
        </Stack>
      </form>
    </AdminAuthCard>
  );
}
