import { createAdminMotd, type MotdInput } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { refreshMotdList } from './list-motds';

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function scheduleMotd(body: MotdInput) {
  return adminCall(createAdminMotd, { body }, { notify: false });
}

export function useScheduleMotd() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: scheduleMotd, onSuccess: () => refreshMotdList(queryClient) });
}
