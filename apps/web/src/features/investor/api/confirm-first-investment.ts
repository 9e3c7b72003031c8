import { confirmFirstInvestment, recordWarningShown } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { INVESTOR_JOURNEY_KEY } from '../../../lib/investor-journey';

/** `POST /api/v1/investor/warnings/shown`: evidence that the personalised warning was on screen. */
export function useRecordWarningShown() {
  return useMutation({
    mutationFn: () => apiCall(recordWarningShown, { body: { warning: 'personalised' } }, { notify: false }),
  });
}

/** `POST /api/v1/investor/confirm`: accepts the warning; buying opens. */
export function useConfirmFirstInvestment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(confirmFirstInvestment, { body: { accepted: true } }),
    onSuccess: (answer) => queryClient.setQueryData(INVESTOR_JOURNEY_KEY, answer.data),
  });
}
