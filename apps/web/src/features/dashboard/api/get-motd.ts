import { getMotd, type Motd } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { hasSeenMotd, markMotdSeen } from '../motd';

/**
 * The message of the day to show, if any (spec 000 section 7): the one live
 * now, unless it has shown in this session already (it is then marked as
 * shown). Fetched once per page load. A failure is only logged (spec 000
 * section 8): no toast, no retry.
 */
export const motdQuery = queryOptions({
  queryKey: ['motd'] as const,
  queryFn: async ({ signal }): Promise<Motd['data']> => {
    try {
      const motd = (await apiCall(getMotd, {}, { signal, notify: false })).data;
      if (!motd || hasSeenMotd(window.sessionStorage, motd.id)) return null;
      markMotdSeen(window.sessionStorage, motd.id);
      return motd;
    } catch (error) {
      if (signal.aborted) throw error;
      // A warning, not an error: the message is a nicety and the page works without it.
      console.warn('The message of the day could not be loaded', error);
      return null;
    }
  },
  retry: false,
  staleTime: Infinity,
});

export function useMotd() {
  return useQuery(motdQuery);
}
