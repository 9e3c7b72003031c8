import { startAssessment, submitAssessment } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { INVESTOR_JOURNEY_KEY } from '../../../lib/investor-journey';

/** `POST /api/v1/investor/assessment`: a fresh attempt, drawn by the server. */
export function useStartAssessment() {
  return useMutation({
    mutationFn: async () => (await apiCall(startAssessment, {}, { notify: false })).data,
  });
}

/** `POST /api/v1/investor/assessment/{attemptId}`: the outcome, and the journey after it. */
export function useSubmitAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ attemptId, answers }: { attemptId: string; answers: Record<string, string> }) =>
      apiCall(submitAssessment, { params: { attemptId }, body: { answers } }, { notify: false }),
    onSuccess: (answer) => queryClient.setQueryData(INVESTOR_JOURNEY_KEY, answer.data),
  });
}
