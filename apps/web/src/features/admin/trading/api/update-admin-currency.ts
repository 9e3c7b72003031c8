import { updateAdminCurrency, type FiatCurrency } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

export const AdminCurrencyBodySchema = updateAdminCurrency.body;
export type AdminCurrencyInput = z.input<typeof AdminCurrencyBodySchema>;

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function saveAdminCurrency({ code, body }: { code: FiatCurrency; body: AdminCurrencyInput }) {
  return adminCall(updateAdminCurrency, { params: { code }, body }, { notify: false });
}

export function useSaveAdminCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminCurrency,
    // After a refusal too: a colleague's save that caused it shows in the list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_TRADING_KEYS.currencies }),
  });
}
