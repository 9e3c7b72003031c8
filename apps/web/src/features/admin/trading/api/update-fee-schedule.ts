import { updateFeeSchedule, type UpdateFeeScheduleBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function useUpdateFeeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateFeeScheduleBody) => adminCall(updateFeeSchedule, { body }, { notify: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_TRADING_KEYS.feePlans }),
  });
}
