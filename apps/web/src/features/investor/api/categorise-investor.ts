import { categoriseInvestor, type CategoriseBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { INVESTOR_JOURNEY_KEY } from '../../../lib/investor-journey';

/** `POST /api/v1/investor/categorisation`: the journey moves on with the answer. */
export function useCategoriseInvestor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CategoriseBody) => apiCall(categoriseInvestor, { body }, { notify: false }),
    onSuccess: (answer) => queryClient.setQueryData(INVESTOR_JOURNEY_KEY, answer.data),
  });
}
