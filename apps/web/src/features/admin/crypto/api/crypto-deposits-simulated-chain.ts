import {
  broadcastSimulatedDeposit,
  mineSimulatedBlocks,
  type CryptoAsset,
  type SimulatedDepositBody,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { CRYPTO_DEPOSIT_KEYS } from './crypto-deposit-keys';

/**
 * The simulated chain (the embedded default). The server answers 409 for a
 * coin watched on a real node; the forms report failures themselves.
 */
export function broadcastDeposit(body: SimulatedDepositBody) {
  return adminCall(broadcastSimulatedDeposit, { body }, { notify: false });
}

export function mineBlocks({ asset, blocks }: { asset: CryptoAsset; blocks: number }) {
  return adminCall(mineSimulatedBlocks, { body: { asset, blocks } }, { notify: false });
}

/** The deposit watcher runs after each call, so a deposit may appear, count a confirmation or be credited. */
function useChainMutation<TInput, TData>(mutationFn: (input: TInput) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CRYPTO_DEPOSIT_KEYS.deposits }),
  });
}

export function useBroadcastSimulatedDeposit() {
  return useChainMutation(broadcastDeposit);
}

export function useMineSimulatedBlocks() {
  return useChainMutation(mineBlocks);
}
