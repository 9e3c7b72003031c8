import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PATHS, settingsTabPath, SETTINGS_TABS } from '../../lib/paths';

/**
 * What a signed-in screen hands the login page when its session ends under it: where the customer
 * was, and the notice that says why they are here.
 */
export type LoginState = { from?: string; notice?: string };

export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/** Only back to a signed-in screen: a `from` is never a way off the site. */
function returnPath(from: string | undefined): string {
  return from?.startsWith(`${PATHS.dashboard}/`) ? from : PATHS.dashboard;
}

/**
 * After sign-in: nothing cached from an earlier session may show, then the
 * screen the customer was on when their last session ended, or the
 * dashboard; Settings' 2FA tab for an account upgraded from the previous
 * product (its old 2FA does not carry over; spec 000 section 4).
 */
export function useStartSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (session: { upgraded: number }, from?: string) => {
    queryClient.clear();
    await navigate(session.upgraded === 1 ? settingsTabPath(SETTINGS_TABS.twoFactor) : returnPath(from), {
      replace: true,
    });
  };
}
