import { getUpgradeWebhook, setUpgradeWebhook, type UpgradeWebhookBody } from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const upgradeWebhookQuery = queryOptions({
  queryKey: ['admin', 'upgrades', 'webhook'] as const,
  queryFn: async ({ signal }) => (await adminCall(getUpgradeWebhook, {}, { signal })).data,
});

export function useUpgradeWebhook(isEnabled: boolean) {
  return useQuery({ ...upgradeWebhookQuery, enabled: isEnabled });
}

/** The form puts field errors beside its input, so it reports failures itself. */
export function saveUpgradeWebhook(body: UpgradeWebhookBody) {
  return adminCall(setUpgradeWebhook, { body }, { notify: false });
}

export function useSaveUpgradeWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUpgradeWebhook,
    onSuccess: (answer) => queryClient.setQueryData(upgradeWebhookQuery.queryKey, answer.data),
  });
}
