import type { Kysely } from 'kysely';
import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import type { DB } from '../../../db/schema.js';
import type { SimulatedChain } from './simulated.js';
import type { ChainClient } from './types.js';

/**
 * How an approved withdrawal leaves: the simulated chain's hot wallet
 * broadcasts it at once (the embedded default); a real chain's coins are in
 * cold storage, so staff export the unsigned transaction for the offline
 * signer and enter the txid it returns. The server never holds a private key.
 * In production nothing is sent through the simulated chain: its hot wallet
 * holds no real coins, so a coin watched there is sent from cold storage too.
 */
export type WithdrawalWallet =
  | {
      kind: 'simulated';
      /** Broadcasts inside the withdrawal's transaction (`executor`): sent and recorded, or neither. */
      send(
        input: { asset: CryptoAsset; address: string; tag: string | null; amount: bigint },
        executor: Kysely<DB>,
      ): Promise<string>;
    }
  | { kind: 'cold_storage' };

export function withdrawalWalletsFor(
  chains: Record<CryptoAsset, ChainClient>,
  simulated: SimulatedChain,
  { isProduction }: { isProduction: boolean },
): Record<CryptoAsset, WithdrawalWallet> {
  const hot: WithdrawalWallet = {
    kind: 'simulated',
    async send(input, executor) {
      return (await simulated.broadcast({ ...input, txid: null }, executor)).txid;
    },
  };
  const wallets = {} as Record<CryptoAsset, WithdrawalWallet>;
  for (const asset of CRYPTO_ASSETS)
    wallets[asset] = chains[asset] === simulated.client && !isProduction ? hot : { kind: 'cold_storage' };
  return wallets;
}
