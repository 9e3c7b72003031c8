import { Alert, Container } from '@mantine/core';
import { useLocation } from 'react-router';
import { describeRateLimit, useRateLimitNotice } from '../lib/rate-limit-notice';
import { isWaiting, useNowPassing } from '../lib/use-now-passing';

/**
 * A 429 on this page, told until the wait is over: a toast of 3 seconds was
 * gone before anyone read it, and the form then looked as if it did nothing.
 * The layouts show it once, above every page's forms.
 */
export function RateLimitAlert({
  maw,
}: {
  /** As wide as the page's form (the sign-in card's 460 px); else the signed-in pages' width. */ maw?: number;
}) {
  const { pathname } = useLocation();
  const notice = useRateLimitNotice(pathname);
  const now = useNowPassing([notice?.until]);
  if (!notice || (notice.until !== null && !isWaiting(notice.until, now))) return null;
  return (
    <Container size={maw ?? 'lg'} pt="md">
      <Alert color="orange" variant="light" role="alert" title={notice.title} mb="md">
        {describeRateLimit(notice.message, notice.until)}
      </Alert>
    </Container>
  );
}
