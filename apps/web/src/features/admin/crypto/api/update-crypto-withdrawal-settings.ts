import { updateCryptoWithdrawalSettings, type CoinId } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_WITHDRAWAL_KEYS } from './crypto-withdrawal-keys';

export const CryptoWithdrawalSettingsBodySchema = updateCryptoWithdrawalSettings.body;
export type CryptoWithdrawalSettingsInput = z.input<typeof CryptoWithdrawalSettingsBodySchema>;

/** The form's payout limits left empty are "none" (null), as the contract has them. */
export const CryptoWithdrawalSettingsFormSchema = z.preprocess((values) => {
  const { payout, ...rest } = values as { payout?: Record<string, unknown> };
  if (!payout) return values;
  const limits = Object.entries(payout).map(([key, value]): [string, unknown] => [
    key,
    typeof value === 'string' && value.trim() === '' ? null : value,
  ]);
  return { ...rest, payout: Object.fromEntries(limits) };
}, CryptoWithdrawalSettingsBodySchema);

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function saveCryptoWithdrawalSettings({
  coinId,
  body,
}: {
  coinId: CoinId;
  body: CryptoWithdrawalSettingsInput;
}) {
  return adminCall(updateCryptoWithdrawalSettings, { params: { coin_id: coinId }, body }, { notify: false });
}

export function useSaveCryptoWithdrawalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCryptoWithdrawalSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CRYPTO_WITHDRAWAL_KEYS.settings }),
  });
}
