import { ModalsProvider } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { setUnauthenticatedHandler } from '../lib/errors';
import { PATHS } from '../lib/paths';

/**
 * A 401 from any call means the session is gone (expired, revoked by a
 * password change elsewhere, signed out in another tab): go to /login, then
 * forget every cached answer. Clearing after the signed-in screens are gone
 * keeps them from refetching in between.
 */
function useSignedOutRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      setUnauthenticatedHandler(() => {
        void (async () => {
          await navigate(PATHS.login, { replace: true });
          queryClient.clear();
        })();
      }),
    [navigate, queryClient],
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
