import { updateFeeSchedule, type UpdateFeeScheduleBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { feePlansQuery } from './get-fee-plans';

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function useUpdateFeeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateFeeScheduleBody) => adminCall(updateFeeSchedule, { body }, { notify: false }),
    // The schedule as saved, not a refetch: another instance may still price by its copy for a few seconds.
    onSuccess: ({ data: schedule }) =>
      queryClient.setQueryData(feePlansQuery.queryKey, (plans) => (plans ? { ...plans, schedule } : plans)),
  });
}
