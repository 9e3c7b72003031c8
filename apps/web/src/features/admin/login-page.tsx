import { AdminLoginBodySchema, type AdminLoginBody, type TwoFactorEnrollment } from '@florin/contracts';
import { Alert, Anchor, Box, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { PasscodeField } from '../../components/passcode-field';
import { PasswordField } from '../../components/password-field';
import { describeError, toAppError } from '../../lib/errors';
import { contractResolver, markFieldErrors } from '../../lib/forms';
import type { AdminLoginState } from './admin-layout';
import { ADMIN_PATHS } from './admin-paths';
import { staffMeQuery } from './api/get-me';
import { useConfirmStaffCode, useSignInStaff } from './api/login';
import { AdminAuthCard } from './components/admin-auth-card';

type Notice = { tone: 'info' | 'success' | 'error'; text: string };
type Step =
  { kind: 'credentials' } | { kind: 'code'; loginToken: string; enrollment: TwoFactorEnrollment | null };

const NOTICE_COLORS = { info: 'blue', success: 'teal', error: 'red' } as const;

/** Only back to a back-office screen: a `from` is never a way off the site. */
function destinationAfterSignIn(state: AdminLoginState | null): string {
  const from = state?.from;
  return from?.startsWith(`${ADMIN_PATHS.root}/`) && !from.startsWith(ADMIN_PATHS.login)
    ? from
    : ADMIN_PATHS.root;
}

/** The secret in groups of four, as authenticator apps print it, so it is easier to type. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function CredentialsStep({
  onChallenge,
  onNotice,
}: {
  onChallenge: (step: Extract<Step, { kind: 'code' }>) => void;
  onNotice: (notice: Notice | null) => void;
}) {
  const signIn = useSignInStaff();
  const form = useForm<AdminLoginBody>({
    resolver: contractResolver<AdminLoginBody>(AdminLoginBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const handleSubmit = (values: AdminLoginBody) => {
    onNotice(null);
    signIn.mutate(values, {
      onSuccess: (answer) =>
        onChallenge({ kind: 'code', loginToken: answer.login_token, enrollment: answer.enrollment }),
      onError: (error) => {
        const appError = toAppError(error);
        markFieldErrors(appError, form.setError, ['email', 'password']);
        onNotice({ tone: 'error', text: describeError(appError) });
      },
    });
  };

  return (
    <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Button type="submit" size="md" fullWidth loading={signIn.isPending}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

function EnrollmentInstructions({ enrollment }: { enrollment: TwoFactorEnrollment }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        Two-factor authentication is required for every staff account. Scan this QR code with an authenticator
        app (Google Authenticator, Microsoft Authenticator or similar), then enter the 6-digit code it shows.
      </Text>
      <Box
        p="sm"
        bg="white"
        w="fit-content"
        bd="1px solid var(--mantine-color-gray-3)"
        style={{ borderRadius: 8, alignSelf: 'center' }}
      >
        <QRCodeSVG
          value={enrollment.otpauth_url}
          size={184}
          marginSize={2}
          role="img"
          aria-label="QR code for your authenticator app"
        />
      </Box>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Secret key"
          description="Can't scan it? Type this key into the app instead."
          value={groupSecret(enrollment.secret)}
          readOnly
          spellCheck={false}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.05em' } }}
        />
        <CopyButton value={enrollment.secret}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function CodeStep({
  step,
  onSignedIn,
  onRestart,
}: {
  step: Extract<Step, { kind: 'code' }>;
  onSignedIn: () => Promise<void>;
  onRestart: (notice: Notice) => void;
}) {
  const queryClient = useQueryClient();
  const confirm = useConfirmStaffCode();
  const [code, setCode] = useState('');
  const [wasWrong, setWasWrong] = useState(false);

  const handleSubmit = (value: string) => {
    if (confirm.isPending) return;
    confirm.mutate(
      { login_token: step.loginToken, code: value },
      {
        onSuccess: (me) => {
          // Nothing cached from another session may show; the shell then knows who is here at once.
          queryClient.clear();
          queryClient.setQueryData(staffMeQuery.queryKey, me);
          void onSignedIn();
        },
        onError: (error) => {
          const appError = toAppError(error);
          setCode('');
          if (appError.code === 'INVALID_PASSCODE' || appError.code === 'VALIDATION_FAILED') {
            setWasWrong(true);
            return;
          }
          // The sign-in expired or had too many wrong codes: it starts again from the password.
          onRestart({ tone: 'error', text: describeError(appError) });
        },
      },
    );
  };

  return (
    <Stack gap="md">
      {step.enrollment ? (
        <EnrollmentInstructions enrollment={step.enrollment} />
      ) : (
        <Text size="sm">Enter the 6-digit code from your authenticator app to finish signing in.</Text>
      )}
      {wasWrong && (
        <Alert color="red" variant="light" role="alert">
          Wrong Passcode.
        </Alert>
      )}
      <PasscodeField
        value={code}
        onChange={(value) => {
          setCode(value);
          if (value) setWasWrong(false);
        }}
        onSubmit={handleSubmit}
        isSubmitting={confirm.isPending}
        hasError={wasWrong}
      />
      <Anchor
        component="button"
        type="button"
        size="sm"
        w="fit-content"
        onClick={() => onRestart({ tone: 'info', text: 'Sign in again with your email and password.' })}
      >
        Start again
      </Anchor>
    </Stack>
  );
}

/** `/admin/login`: e-mail and password, then a code from the authenticator (set up here the first time). */
export function AdminLoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as AdminLoginState | null;
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const [notice, setNotice] = useState<Notice | null>(
    state?.notice ? { tone: 'info', text: state.notice } : null,
  );

  const isEnrolling = step.kind === 'code' && step.enrollment !== null;
  const title = isEnrolling
    ? 'Set up two-factor authentication'
    : step.kind === 'code'
      ? 'Two-factor authentication'
      : 'Staff sign-in';

  return (
    <AdminAuthCard
      title={title}
      description={
        step.kind === 'credentials' ? 'The Florin back office is for Florin staff only.' : undefined
      }
    >
      {notice && (
        <Alert
          color={NOTICE_COLORS[notice.tone]}
          variant="light"
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </Alert>
      )}
      {step.kind === 'credentials' ? (
        <CredentialsStep
          onChallenge={(next) => {
            setNotice(null);
            setStep(next);
          }}
          onNotice={setNotice}
        />
      ) : (
        <CodeStep
          step={step}
          onSignedIn={async () => {
            await navigate(destinationAfterSignIn(state), { replace: true });
          }}
          onRestart={(next) => {
            setNotice(next);
            setStep({ kind: 'credentials' });
          }}
        />
      )}
    </AdminAuthCard>
  );
}
