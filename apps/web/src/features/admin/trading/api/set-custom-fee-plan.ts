import { ADMIN_TRADING_TEXTS, setCustomFeePlan } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

/** The contract's body and the customer it is for, as the form takes them. */
export const CustomFeePlanFormSchema = setCustomFeePlan.body.extend({
  user_id: z
    .string({ error: ADMIN_TRADING_TEXTS.customerId })
    .trim()
    .regex(/^[1-9]\d{0,9}$/, ADMIN_TRADING_TEXTS.customerId),
});
export type CustomFeePlanValues = z.output<typeof CustomFeePlanFormSchema>;

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function saveCustomFeePlan({ user_id: userId, ...body }: CustomFeePlanValues) {
  return adminCall(setCustomFeePlan, { params: { user_id: Number(userId) }, body }, { notify: false });
}

export function useSaveCustomFeePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCustomFeePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_TRADING_KEYS.feePlans }),
  });
}
