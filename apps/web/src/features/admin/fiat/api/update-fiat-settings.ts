import {
  updateFiatBankSettings,
  type FiatCurrency,
  type UpdateFiatBankSettingsBodySchema,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

export type FiatSettingsInput = z.input<typeof UpdateFiatBankSettingsBodySchema>;

/** The form puts field errors beside its inputs, so it reports failures itself. */
export function updateFiatSettings({ currency, body }: { currency: FiatCurrency; body: FiatSettingsInput }) {
  return adminCall(updateFiatBankSettings, { params: { currency }, body }, { notify: false });
}

export function useUpdateFiatSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFiatSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.settings }),
  });
}
