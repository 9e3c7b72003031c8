import { AUTH_TEXTS, getUser, LoginBodySchema } from '@florin/contracts';
import { Alert, Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { PasswordField } from '../../components/password-field';
import { apiCall } from '../../lib/api-client';
import { reportError, toAppError } from '../../lib/errors';
import { contractResolver } from '../../lib/forms';
import { PATHS } from '../../lib/paths';
import { useIsHydrated } from '../../lib/use-is-hydrated';
import { needsSecondFactor, useSignIn } from './api/login';
import { useResendVerificationEmail } from './api/resend-verification';
import { AltchaCaptcha, type CaptchaHandle } from './components/altcha-captcha';
import { AuthCard } from './components/auth-card';
import { TwoFactorLoginModal, type SignInChallenge } from './components/two-factor-login-modal';
import { loginBannerFor } from './login-banner';
import { useStartSession, type LoginState } from './use-start-session';

type LoginForm = { username: string; password: string };

const LoginFormSchema = LoginBodySchema.omit({ altcha: true });

/**
 * `/` and `/login` (spec 002 section 2.11). `/login` is prerendered
 * (prerender.tsx): what depends on the address (the banner) or on the
 * visitor (their session) waits for hydration. What was typed or autofilled
 * before it stays: the fields are uncontrolled, React leaves their values
 * alone as it takes them over, and react-hook-form keeps what it finds.
 */
export function LoginPage() {
  const hydrated = useIsHydrated();
  const [searchParams] = useSearchParams();
  const banner = hydrated ? loginBannerFor(searchParams) : undefined;
  // Sent here by a signed-in screen whose session ended: why, and where to go back to.
  const loginState = (useLocation().state as LoginState | null) ?? {};
  const notice = hydrated ? loginState.notice : undefined;
  const [signingIn, setSigningIn] = useState(false);
  // A visitor who is still signed in goes to their dashboard (issue 12), unless a banner has news for them.
  // Silent: for everyone else the answer is a 401, and the form is usable while it comes. Not once they
  // sign in here: the new session would answer it too, and the dashboard would race the page
  // useStartSession chose (Settings' 2FA tab for an upgraded account).
  const existingSession = useQuery({
    queryKey: ['login-session-check'],
    queryFn: ({ signal }) => apiCall(getUser, {}, { signal, notify: false }),
    enabled: hydrated && !banner && !signingIn,
    retry: false,
    gcTime: 0,
  });
  const captcha = useRef<CaptchaHandle>(null);
  const [captchaPayload, setCaptchaPayload] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const [unverified, setUnverified] = useState<{ userId: number; message: string } | null>(null);
  const signIn = useSignIn();
  const resend = useResendVerificationEmail();
  const startSession = useStartSession();
  const form = useForm<LoginForm>({
    resolver: contractResolver<LoginForm>(LoginFormSchema),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;

  // A captcha payload is spent by any attempt, right or wrong: the next one needs a fresh proof of work.
  const startOver = () => {
    captcha.current?.reset();
    setCaptchaPayload(null);
    signIn.reset();
  };

  const handleSubmit = (values: LoginForm) => {
    if (!captchaPayload) return;
    setSigningIn(true);
    setUnverified(null);
    signIn.mutate(
      { ...values, altcha: captchaPayload },
      {
        onSuccess: (response) => {
          if (needsSecondFactor(response))
            setChallenge({ loginToken: response.login_token, emailCode: response.data.email_code });
          else void startSession(response, loginState.from);
        },
        onError: (error) => {
          startOver();
          const appError = toAppError(error);
          const userId = appError.data?.user_id;
          if (appError.code === 'EMAIL_NOT_VERIFIED' && typeof userId === 'number') {
            setUnverified({ userId, message: appError.message });
            return;
          }
          // Spec 000 section 8: every other sign-in failure is titled Login Failed!, with the server's text.
          reportError(appError, { title: AUTH_TEXTS.loginFailedTitle });
        },
      },
    );
  };

  const handleTwoFactorClose = () => {
    setChallenge(null);
    startOver();
  };

  if (existingSession.isSuccess && !signingIn) return <Navigate to={PATHS.dashboard} replace />;
  return (
    <AuthCard title="Log in" description="Welcome back. Sign in to your Florin account.">
      {banner && (
        <Alert color={banner.tone === 'success' ? 'teal' : 'red'} variant="light" role="status">
          {banner.text}
        </Alert>
      )}
      {notice && !banner && (
        <Alert color="blue" variant="light" role="status">
          {notice}
        </Alert>
      )}
      {unverified && (
        <Alert color="orange" variant="light" title={AUTH_TEXTS.emailNotVerifiedTitle} role="alert">
          <Stack gap="xs" align="flex-start">
            {unverified.message}
            <Button
              size="xs"
              variant="white"
              color="orange"
              loading={resend.isPending}
              onClick={() => resend.mutate(unverified.userId)}
            >
              Resend verification email
            </Button>
          </Stack>
        </Alert>
      )}
      <form onSubmit={(event) => void form.handleSubmit(handleSubmit)(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="User Name"
            description="The email address you registered with"
            type="email"
            autoComplete="username"
            inputMode="email"
            error={errors.username?.message}
            {...form.register('username')}
          />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <AltchaCaptcha ref={captcha} onChange={setCaptchaPayload} />
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to={PATHS.forgotPassword} size="sm">
              Forget Password?
            </Anchor>
            <Anchor component={Link} to={PATHS.register} size="sm">
              Register Now!
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={signIn.isPending} disabled={!captchaPayload}>
            Login
          </Button>
        </Stack>
      </form>
      <TwoFactorLoginModal
        challenge={challenge}
        onSignedIn={(session) => void startSession(session, loginState.from)}
        onClose={handleTwoFactorClose}
      />
    </AuthCard>
  );
}
