import { NEWSLETTER_TEXTS, NewsletterSignUpBodySchema, type NewsletterSignUpBody } from '@florin/contracts';
import { Alert, Anchor, Button, Flex, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { describeError, toAppError } from '../../../lib/errors';
import { contractResolver, markFieldErrors } from '../../../lib/forms';
import { PATHS } from '../../../lib/paths';
import { useIsHydrated } from '../../../lib/use-is-hydrated';
import { useSignUpToNewsletter } from './api/subscribe-newsletter';

const resolver = contractResolver<NewsletterSignUpBody>(NewsletterSignUpBodySchema);

/** The consent wording, with its "Privacy Policy" as a link to /privacy. */
function ConsentText() {
  const [before, after] = NEWSLETTER_TEXTS.consent.split(NEWSLETTER_TEXTS.privacyPolicy);
  return (
    <Text size="xs" c="dimmed">
      {before}
      <Anchor component={Link} to={PATHS.privacy} inherit underline="always">
        {NEWSLETTER_TEXTS.privacyPolicy}
      </Anchor>
      {after}
    </Text>
  );
}

/**
 * The landing page's newsletter sign-up (spec 002 §2.7; issue 12), placed by
 * the landing page under its own heading: double opt-in, so success means
 * "check your inbox". The answer is the same whether or not the address was
 * on the list already.
 */
export function NewsletterForm() {
  const signUp = useSignUpToNewsletter();
  const isHydrated = useIsHydrated();
  const form = useForm<NewsletterSignUpBody>({ resolver, defaultValues: { email: '' } });
  const { errors } = form.formState;
  const failure = signUp.error ? toAppError(signUp.error) : null;
  // A field error sits under the field; anything else (rate limit, outage) in the alert below.
  const failureText = failure && !failure.errors ? describeError(failure) : null;

  const handleSubmit = form.handleSubmit((values) => {
    signUp.mutate(values, {
      onSuccess: () => form.reset({ email: '' }),
      onError: (error) => markFieldErrors(toAppError(error), form.setError, ['email']),
    });
  });

  return (
    <Stack gap="sm">
      <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label={NEWSLETTER_TEXTS.formLabel}>
        <Stack gap="sm">
          <Flex
            gap="sm"
            direction={{ base: 'column', xs: 'row' }}
            align={{ base: 'stretch', xs: 'flex-start' }}
          >
            <TextInput
              label={NEWSLETTER_TEXTS.emailLabel}
              type="email"
              inputMode="email"
              autoComplete="email"
              placeholder="you@example.com"
              error={errors.email?.message}
              style={{ flex: 1 }}
              {...form.register('email')}
            />
            {/* Level with the input, below its label, on a wide screen. */}
            <Button type="submit" mt={{ base: 0, xs: 25 }} loading={signUp.isPending} disabled={!isHydrated}>
              {NEWSLETTER_TEXTS.subscribe}
            </Button>
          </Flex>
          <ConsentText />
        </Stack>
      </form>
      {signUp.isSuccess && (
        <Alert color="teal" variant="light" role="status">
          {signUp.data.message}
        </Alert>
      )}
      {failureText && (
        <Alert color="red" variant="light" role="alert">
          {failureText}
        </Alert>
      )}
    </Stack>
  );
}
