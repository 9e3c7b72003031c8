import { ALERTS_TEXTS, updateNotifications, type NotificationFlags, type User } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';
import { reportError, statusText, toAppError } from '../../../lib/errors';
import { showSuccessToast } from '../../../lib/toasts';

export type UpdateNotificationsInput = { userId: number; flags: NotificationFlags };

/** Spec 002 §7: all four switches in one call, with the spec's settings flag. */
export function saveNotificationFlags({ userId, flags }: UpdateNotificationsInput) {
  // Spec 002 §8: a failure shows the status text and the messages; the hook reports it after reverting.
  return apiCall(
    updateNotifications,
    { params: { id: userId }, body: { ...flags, settings: 1 } },
    { notify: false },
  );
}

/**
 * Optimistic: the switches move at once in the cached user; a failure puts
 * them back and says why. The user is fetched again either way.
 */
export function useUpdateNotifications() {
  const queryClient = useQueryClient();
  const key = currentUserQuery.queryKey;
  return useMutation({
    mutationFn: saveNotificationFlags,
    onMutate: async ({ flags }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<User>(key);
      if (previous) queryClient.setQueryData<User>(key, { ...previous, ...flags });
      return { previous };
    },
    onError: (error, _input, context) => {
      if (context?.previous) queryClient.setQueryData<User>(key, context.previous);
      const appError = toAppError(error);
      reportError(appError, { title: statusText(appError.status) });
    },
    onSuccess: (response) => {
      showSuccessToast({ id: 'alerts-updated', title: ALERTS_TEXTS.successTitle, message: response.message });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
