import {
  createPromoCode,
  listAdminPromoCodes,
  setPromoCodeActive,
  type CreatePromoCodeBody,
} from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export const adminPromoCodesQuery = queryOptions({
  queryKey: ['admin', 'promo-codes'] as const,
  queryFn: async ({ signal }) => (await adminCall(listAdminPromoCodes, {}, { signal })).data,
});

export function useAdminPromoCodes() {
  return useQuery(adminPromoCodesQuery);
}

export function useCreatePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePromoCodeBody) => adminCall(createPromoCode, { body }, { notify: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesQuery.queryKey }),
  });
}

export function useSetPromoCodeActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; isActive: boolean }) =>
      adminCall(setPromoCodeActive, { params: { id: input.id }, body: { is_active: input.isActive } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPromoCodesQuery.queryKey }),
  });
}
