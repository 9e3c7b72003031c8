import { AppError } from '@florin/contracts';
import { Button, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Outlet, useMatches } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { RiskWarning } from '../../components/risk-warning';
import { useSignOut } from '../../features/auth/api/logout';
import { MessageOfTheDay } from '../../features/dashboard/components/motd-toast';
import { needsVerificationScreen } from '../../features/kyc/verification';
import { useCurrentUser } from '../../lib/current-user';
import { RateLimitAlert } from '../../components/rate-limit-alert';
import { PublicFooter } from '../public-layout/public-footer';
import { AccountBanners } from './account-banners';
import { UserHeader } from './user-header';
import classes from './user-layout.module.css';

/** Route `handle` of a signed-in page a customer may use before they are live (Settings, for 2FA). */
export type SignedInRouteHandle = { isOpenBeforeLive?: boolean };

function isOpenBeforeLive(handle: unknown): boolean {
  return (
    typeof handle === 'object' && handle !== null && (handle as SignedInRouteHandle).isOpenBeforeLive === true
  );
}

/** The wizard is a chunk of its own: a live customer never needs it. */
const GettingStartedPage = lazy(async () => ({
  default: (await import('../../features/kyc/getting-started-page')).GettingStartedPage,
}));

function FullPageLoader() {
  return (
    <Center mih="100dvh" role="status" aria-label="Loading your account">
      <Loader />
    </Center>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Container size="sm" py={96}>
      <title>Something went wrong · Florin</title>
      <Stack align="center" ta="center" gap="md" role="alert">
        <Title order={1}>Your account could not be loaded</Title>
        <Text c="dimmed">Please try again; if it keeps happening, contact support.</Text>
        <Button onClick={onRetry}>Try again</Button>
      </Stack>
    </Container>
  );
}

/**
 * The frame of every /user page (spec 000 section 2). An anonymous visitor's
 * `GET /user` answers 401, which the app's handler turns into a trip to
 * /login; until the user is known a full-page spinner shows. A customer who
 * is not live yet sees Getting Started instead of the page asked for.
 */
export function UserLayout() {
  const { data: user, error, isPending, refetch } = useCurrentUser();
  const matches = useMatches();
  const signOut = useSignOut();

  if (!user) {
    // A 401 is on its way to /login: keep spinning rather than flash an error.
    const isSignedOut = error instanceof AppError && error.code === 'UNAUTHENTICATED';
    return isPending || isSignedOut ? <FullPageLoader /> : <LoadFailed onRetry={() => void refetch()} />;
  }

  // Not live, a declined document, or a source-of-wealth reset: Getting Started (spec 000 section 2).
  const showsRequestedPage =
    !needsVerificationScreen(user) || matches.some((match) => isOpenBeforeLive(match.handle));

  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <div className={classes.top}>
        <UserHeader user={user} />
        <RiskWarning />
      </div>
      <main id="main" tabIndex={-1} className={classes.main}>
        <AccountBanners user={user} />
        <RateLimitAlert />
        {showsRequestedPage ? (
          <Outlet />
        ) : (
          <Suspense fallback={<PageLoader />}>
            <GettingStartedPage onSignOut={() => signOut.mutate()} />
          </Suspense>
        )}
      </main>
      <PublicFooter />
      <MessageOfTheDay />
    </div>
  );
}
