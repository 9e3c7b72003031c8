import { CLOSURE_TEXTS, fillText, type User } from '@florin/contracts';
import { Alert, Button, Container, Stack, Text } from '@mantine/core';
import { useResendVerificationEmail } from '../../features/auth/api/resend-verification';
import { isOnHold } from '../../lib/current-user';
import { formatDateTime } from '../../lib/format';

/** The firm's notice, then the withdraw-only period (issue 13); null for an account in good standing. */
function terminationNotice(user: User): { title: string; text: string } | null {
  if (!user.terminated_at || !user.access_ends_at) return null;
  const dates = {
    terminatesAt: formatDateTime(user.terminated_at) ?? user.terminated_at,
    accessEndsAt: formatDateTime(user.access_ends_at) ?? user.access_ends_at,
  };
  return Date.parse(user.terminated_at) > Date.now()
    ? { title: 'Notice of termination', text: fillText(CLOSURE_TEXTS.noticeBanner, dates) }
    : { title: 'Account terminated', text: fillText(CLOSURE_TEXTS.terminatedBanner, dates) };
}

/**
 * The shell's account banners (spec 000 section 2): a compliance hold, the
 * firm's notice of termination, and an e-mail change waiting for its
 * confirmation link (DECISIONS.md).
 */
export function AccountBanners({ user }: { user: User }) {
  const resend = useResendVerificationEmail();
  const onHold = isOnHold(user);
  const termination = terminationNotice(user);
  if (!onHold && !user.pending_email && !termination) return null;

  return (
    <Container size="lg" pt="md">
      <Stack gap="sm">
        {onHold && (
          <Alert color="red" variant="light" title="Account on hold" role="alert">
            Our compliance team has put your account on hold. Please contact support to find out more; until
            then you cannot deposit, withdraw or trade.
          </Alert>
        )}
        {termination && (
          <Alert color="orange" variant="light" title={termination.title} role="alert">
            {termination.text}
          </Alert>
        )}
        {user.pending_email && (
          <Alert color="yellow" variant="light" title="Confirm your new email address" role="status">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                We sent a confirmation link to {user.pending_email}. Your email address changes once you open
                it.
              </Text>
              <Button
                size="xs"
                variant="white"
                color="dark"
                loading={resend.isPending}
                onClick={() => resend.mutate(user.id)}
              >
                Resend Email
              </Button>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
