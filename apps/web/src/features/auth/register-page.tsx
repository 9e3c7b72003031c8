import { AUTH_TEXTS, RegisterBodySchema, type RegisterBody } from '@florin/contracts';
import { Alert, Anchor, Button, Checkbox, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { PasswordField } from '../../components/password-field';
import {
  forgetReferralCode,
  rememberedReferralCode,
  rememberReferralCode,
  useCookieConsent,
} from '../../lib/cookie-consent';
import { reportError, toAppError } from '../../lib/errors';
import { contractResolver, markFieldErrors } from '../../lib/forms';
import { PATHS } from '../../lib/paths';
import { useRegister } from './api/register';
import { AuthCard } from './components/auth-card';

type RegisterForm = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  accept_terms_and_privacy: boolean;
};

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'password',
  'password_confirmation',
  'accept_terms_and_privacy',
] as const;

const resolver = contractResolver<RegisterForm>(RegisterBodySchema, {
  confirm: ['password', 'password_confirmation', AUTH_TEXTS.passwordMismatch],
});

/**
 * `/register` (spec 002 section 2.8); `?ref=CODE` (or `?referral_code=CODE`), or the code a referral link
 * left in a cookie on an earlier visit, records who referred the new customer.
 */
export function RegisterPage() {
  const [searchParams] = useSearchParams();
  // `ref` is ours; spec 002 section 2.2 names the query value referral_code.
  const codeInAddress = (searchParams.get('ref') ?? searchParams.get('referral_code'))?.trim() || undefined;
  const referralCode = codeInAddress ?? rememberedReferralCode();
  const consent = useCookieConsent();
  useEffect(() => {
    // Again when the visitor allows cookies on this page: the code is kept from then on.
    if (codeInAddress) rememberReferralCode(codeInAddress);
  }, [codeInAddress, consent]);
  const registration = useRegister();
  const form = useForm<RegisterForm>({
    resolver,
    defaultValues: {
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      password_confirmation: '',
      accept_terms_and_privacy: false,
    },
  });
  const { errors } = form.formState;

  const handleSubmit = form.handleSubmit((values) => {
    // The resolver has parsed the values with the contract: the terms box is `true` here.
    const body = { ...values, referral_code: referralCode } as RegisterBody;
    registration.mutate(body, {
      onSuccess: forgetReferralCode,
      onError: (error) => {
        const appError = toAppError(error);
        if (appError.code === 'VALIDATION_FAILED') {
          // Spec 002 section 8: the server's message as the title, the field errors line by line.
          markFieldErrors(appError, form.setError, FIELDS);
          reportError(appError, { title: appError.message });
        } else {
          reportError(appError);
        }
      },
    });
  });

  if (registration.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <Alert color="teal" variant="light" role="status">
          {registration.data.message}
        </Alert>
        <Button component={Link} to={PATHS.login} size="md" fullWidth>
          Login
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      description="Register to buy, sell and store cryptoassets in pounds."
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label="First Name"
              autoComplete="given-name"
              error={errors.first_name?.message}
              {...form.register('first_name')}
            />
            <TextInput
              label="Last Name"
              autoComplete="family-name"
              error={errors.last_name?.message}
              {...form.register('last_name')}
            />
          </SimpleGrid>
          <TextInput
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <PasswordField
            label="Password"
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
          {referralCode && (
            <TextInput
              label="Referral code"
              description="You were invited to Florin with this code."
              value={referralCode}
              readOnly
            />
          )}
          <Checkbox
            label={
              <>
                I accept the{' '}
                <Anchor component={Link} to={PATHS.terms} target="_blank" inherit>
                  Terms &amp; Conditions
                </Anchor>{' '}
                and the{' '}
                <Anchor component={Link} to={PATHS.privacy} target="_blank" inherit>
                  Privacy Policy
                </Anchor>
              </>
            }
            error={errors.accept_terms_and_privacy?.message}
            aria-invalid={errors.accept_terms_and_privacy ? true : undefined}
            {...form.register('accept_terms_and_privacy')}
          />
          <Button type="submit" size="md" fullWidth loading={registration.isPending}>
            Register
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={PATHS.login}>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
