import { ModalsProvider } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { setUnauthenticatedHandler } from '../lib/errors';
import { PATHS } from '../lib/paths';

/**
 * A 401 from any call means the session is gone (expired, revoked by a
 * password change elsewhere, signed out in another tab): go to /login, then
 * forget every cached answer. Clearing after the signed-in screens are gone
 * keeps them from refetching in between. On /login itself it only forgets:
 * a request the signed-in screens sent before the session ended (closing the
 * account, signing out) answers 401 after the login screen is up, and going
 * to /login again would drop the banner its query string carries.
 */
function useSignedOutRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  useEffect(
    () =>
      setUnauthenticatedHandler(() => {
        void (async () => {
          if (pathname !== PATHS.login) await navigate(PATHS.login, { replace: true });
          queryClient.clear();
        })();
      }),
    [navigate, pathname, queryClient],
  );
}

/**
 * The top route. ModalsProvider lives here rather than in AppProviders so a
 * modal's content can use links and router hooks.
 */
export function RootLayout() {
  useSignedOutRedirect();
  return (
    <ModalsProvider>
      <ScrollRestoration />
      <Outlet />
    </ModalsProvider>
  );
}
