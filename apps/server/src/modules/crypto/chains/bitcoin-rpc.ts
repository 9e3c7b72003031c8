import { parseAmount } from '@florin/domain';
import { createJsonRpc } from './json-rpc.js';
import type { ChainClient, ChainTransfer } from './types.js';

/** The fields of a `listsinceblock` entry the watcher reads (Bitcoin Core, Litecoin Core, Bitcoin Cash Node). */
type ListedTransaction = {
  address?: string;
  category: string;
  amount: number;
  vout: number;
  confirmations: number;
  txid: string;
};

type ListSinceBlock = { transactions: ListedTransaction[]; removed?: ListedTransaction[]; lastblock: string };

/**
 * Bitcoin Core's wallet RPC (and its Litecoin and Bitcoin Cash forks), for a
 * watch-only wallet that holds the deposit descriptors (the account xpubs):
 * `listsinceblock` from the cursor block, with a target depth one more than
 * the confirmations needed, so every deposit still counting is listed again
 * and its `lastblock` is the next cursor. Reorganised-away transactions have
 * negative confirmations (or come under `removed`) and are left out.
 */
export function createBitcoinRpcClient(url: string): ChainClient {
  const call = createJsonRpc(url, { version: '1.0' });
  return {
    name: 'bitcoin-rpc',
    async scan({ asset, cursor, addresses, confirmations }) {
      const height = await call<number>('getblockcount');
      const params: unknown[] = [cursor ?? '', confirmations + 1, true, true];
      const listed = await call<ListSinceBlock>('listsinceblock', params);
      const transfers: ChainTransfer[] = [];
      for (const entry of listed.transactions) {
        if (entry.category !== 'receive' || entry.confirmations < 0 || !entry.address) continue;
        if (addresses.size > 0 && !addresses.has(entry.address)) continue;
        transfers.push({
          txid: entry.txid,
          output: entry.vout,
          address: entry.address,
          tag: null,
          // A double holds every 8-decimal amount below 21 million coins exactly enough for toFixed(8).
          amount: parseAmount(entry.amount.toFixed(8), asset),
          confirmations: entry.confirmations,
        });
      }
      return { height, transfers, cursor: listed.lastblock, isComplete: true };
    },
  };
}
