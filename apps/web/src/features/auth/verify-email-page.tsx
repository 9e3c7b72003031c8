import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { describeError, isClientError, toAppError } from '../../lib/errors';
import { PATHS } from '../../lib/paths';
import { showErrorToast, showSuccessToast } from '../../lib/toasts';
import { useConfirmEmail } from './api/verify-email';

/**
 * `/verify/<token>`, the link in the verification e-mail: confirms the address and hands over to
 * the login screen, with spec 002 section 8's toast (Success or Invalid Token, with the server's
 * message) and section 2.11's banner. When Florin cannot be reached the token is still good, so
 * the page says so and offers to try again rather than calling the link invalid.
 */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { mutate, isPending } = useConfirmEmail();
  const [isUnreachable, setIsUnreachable] = useState(false);
  // A token works once: the effect must not send it twice (React runs effects twice in development).
  const sent = useRef(false);

  const confirm = useCallback(() => {
    setIsUnreachable(false);
    const land = (result: 'success' | 'error') =>
      void navigate(`${PATHS.login}?user_verified=${result}`, { replace: true });
    mutate(token, {
      onSuccess: ({ message }) => {
        showSuccessToast({ title: 'Success', message });
        land('success');
      },
      onError: (error) => {
        const appError = toAppError(error);
        if (!isClientError(appError)) {
          setIsUnreachable(true);
          return;
        }
        showErrorToast({ title: 'Invalid Token', message: describeError(appError) });
        land('error');
      },
    });
  }, [mutate, navigate, token]);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    confirm();
  }, [confirm]);

  return (
    <Center mih="50vh" px="md">
      <title>Verifying your email · Florin</title>
      {isUnreachable ? (
        <Stack align="center" gap="md" role="alert" maw={420} ta="center">
          <Text fw={600}>Your email address could not be verified just now.</Text>
          <Text>We could not reach Florin. Your link still works: please try again in a moment.</Text>
          <Button onClick={confirm} loading={isPending}>
            Try again
          </Button>
        </Stack>
      ) : (
        <Stack align="center" gap="md" role="status">
          <Loader />
          <Text>Verifying your email address…</Text>
        </Stack>
      )}
    </Center>
  );
}
