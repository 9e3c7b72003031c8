import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PATHS, settingsTabPath, SETTINGS_TABS } from '../../lib/paths';

/**
 * After sign-in: nothing cached from an earlier session may show, then the
 * dashboard, or Settings' 2FA tab for an account upgraded from the previous
 * product (its old 2FA does not carry over; spec 000 section 4).
 */
export function useStartSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (session: { upgraded: number }) => {
    queryClient.clear();
    await navigate(session.upgraded === 1 ? settingsTabPath(SETTINGS_TABS.twoFactor) : PATHS.dashboard, {
      replace: true,
    });
  };
}
