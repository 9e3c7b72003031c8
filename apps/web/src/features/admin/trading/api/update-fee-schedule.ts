import { updateFeeSchedule, type UpdateFeeScheduleBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { feePlansQuery } from './get-fee-plans';

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function useUpdateFeeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateFeeScheduleBody) => adminCall(updateFeeSchedule, { body }, { notify: false }),
    // Read again after a save or a refusal (the server reads it past its cache): the new schedule's
    // revision, or the colleague's schedule that refused it, is what the next edit starts from.
    onSettled: () => queryClient.invalidateQueries({ queryKey: feePlansQuery.queryKey }),
  });
}
