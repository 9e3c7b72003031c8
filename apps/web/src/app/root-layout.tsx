import { ModalsProvider } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate, useNavigation } from 'react-router';
import { SESSION_ENDED_NOTICE, type LoginState } from '../features/auth/use-start-session';
import { currentUserQuery } from '../lib/current-user';
import { setUnauthenticatedHandler } from '../lib/errors';
import { PATHS } from '../lib/paths';

/** The signed-in screens all live under /user (router.tsx). */
function isSignedInPath(pathname: string): boolean {
  return pathname === PATHS.dashboard || pathname.startsWith(`${PATHS.dashboard}/`);
}

/**
 * A 401 from any call means the session is gone (expired, revoked by a
 * password change elsewhere, signed out in another tab): a signed-in screen
 * goes to /login, saying so when a session was showing and coming back to
 * the same screen after sign-in, then every cached answer is forgotten. Anywhere else it
 * only forgets: a request the signed-in screens sent before the session
 * ended (closing the account, signing out) may answer 401 once the visitor
 * is already on /login, whose banner a second trip would drop, or has gone
 * on to another public page.
 *
 * Where the browser is comes from `window.location` when the 401 arrives,
 * not from the last render: the router moves to the new page before React
 * has drawn it (the drawing is a transition), and in between the old
 * screens still render, refetch from the cleared cache and meet 401s. A
 * navigation still on its way out of the signed-in area counts as gone.
 */
function useSignedOutRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const headingTo = useNavigation().location?.pathname;
  useEffect(
    () =>
      setUnauthenticatedHandler(() => {
        void (async () => {
          const leaving = headingTo !== undefined && !isSignedInPath(headingTo);
          const { pathname, search } = window.location;
          if (isSignedInPath(pathname) && !leaving) {
            // Back here after signing in; told why only when a session was showing (not a first visit).
            const wasSignedIn = queryClient.getQueryData(currentUserQuery.queryKey) !== undefined;
            const state: LoginState = {
              from: pathname + search,
              ...(wasSignedIn ? { notice: SESSION_ENDED_NOTICE } : {}),
            };
            await navigate(PATHS.login, { replace: true, state });
          }
          queryClient.clear();
        })();
      }),
    [navigate, headingTo, queryClient],
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
