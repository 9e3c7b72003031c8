import { updateAdminCoin, type CoinId } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminCall } from '../../api/admin-client';
import { ADMIN_TRADING_KEYS } from './admin-trading-keys';

export const AdminCoinBodySchema = updateAdminCoin.body;
export type AdminCoinInput = z.input<typeof AdminCoinBodySchema>;

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function saveAdminCoin({ coinId, body }: { coinId: CoinId; body: AdminCoinInput }) {
  return adminCall(updateAdminCoin, { params: { coin_id: coinId }, body }, { notify: false });
}

export function useSaveAdminCoin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminCoin,
    // After a refusal too: a colleague's save that caused it shows in the list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_TRADING_KEYS.coins }),
  });
}
