import { exportInvestorEvidence, getInvestorEvidence, type InvestorEvidence } from '@florin/contracts';
import { useQuery } from '@tanstack/react-query';
import { endpointUrl } from '../../../../lib/api-client';
import { adminCall } from '../../api/admin-client';
import { customerKey } from './get-customer';

/** Compliance's record of the customer's first-investment journey (issue 13). */
export function useInvestorEvidence(userId: number) {
  return useQuery({
    queryKey: [...customerKey(userId), 'investor-evidence'] as const,
    queryFn: async ({ signal }): Promise<InvestorEvidence> =>
      (await adminCall(getInvestorEvidence, { params: { userId } }, { signal })).data,
  });
}

/** The same record as one JSON file: the browser downloads it with the staff session's cookie. */
export function investorEvidenceUrl(userId: number): string {
  return endpointUrl(exportInvestorEvidence, { params: { userId } });
}
