import {
  createWhitelistedWallet,
  WHITELISTED_WALLET_TYPE,
  type CoinId,
  type CreateWhitelistedWalletBody,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { WHITELIST_KEYS } from './whitelist-keys';

export type AddWalletInput = {
  coin_id: CoinId;
  address: string;
  /** XRP only: the destination tag, sent after '?' in the address (spec 001 §5). */
  tag: string;
  label: string;
  passcode: string;
};

/** The body the server takes: for xrp a tag is appended to the address after a question mark. */
export function walletBody({
  coin_id,
  address,
  tag,
  label,
  passcode,
}: AddWalletInput): CreateWhitelistedWalletBody {
  const trimmedTag = tag.trim();
  const fullAddress = coin_id === 'xrp' && trimmedTag ? `${address.trim()}?${trimmedTag}` : address.trim();
  return {
    coin_id,
    address: fullAddress,
    label: label.trim(),
    passcode: passcode.trim(),
    type: WHITELISTED_WALLET_TYPE,
  };
}

/** The form reports failures itself (field errors beside the inputs). */
export function addWhitelistedWallet(input: AddWalletInput) {
  return apiCall(createWhitelistedWallet, { body: walletBody(input) }, { notify: false });
}

export function useAddWhitelistedWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWhitelistedWallet,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.wallets }),
        queryClient.invalidateQueries({ queryKey: WHITELIST_KEYS.savedAddresses }),
      ]),
  });
}
