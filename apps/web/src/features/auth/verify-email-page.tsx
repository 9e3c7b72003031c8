import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PATHS } from '../../lib/paths';
import { useConfirmEmail } from './api/verify-email';

/**
 * `/verify/<token>`, the link in the verification e-mail: confirms the address
 * and hands over to the login screen, whose banner says how it went.
 */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { mutate } = useConfirmEmail();
  // A token works once: the effect must not send it twice (React runs effects twice in development).
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const land = (result: 'success' | 'error') =>
      void navigate(`${PATHS.login}?user_verified=${result}`, { replace: true });
    mutate(token, { onSuccess: () => land('success'), onError: () => land('error') });
  }, [mutate, navigate, token]);

  return (
    <Center mih="50vh" px="md">
      <title>Verifying your email · Florin</title>
      <Stack align="center" gap="md" role="status">
        <Loader />
        <Text>Verifying your email address…</Text>
      </Stack>
    </Center>
  );
}
