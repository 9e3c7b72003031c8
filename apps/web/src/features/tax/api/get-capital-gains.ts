import { getCapitalGains, type CapitalGainsReport } from '@florin/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** One tax year's report; no year: the current one. The previous year's stays shown while the next loads. */
export function useCapitalGains(year: number | undefined) {
  return useQuery({
    queryKey: ['tax', 'capital-gains', year ?? 'current'],
    // The page shows its own failure with a retry.
    queryFn: ({ signal }): Promise<CapitalGainsReport> =>
      apiCall(getCapitalGains, { query: year === undefined ? {} : { year } }, { signal, notify: false }),
    placeholderData: keepPreviousData,
  });
}
