import { createJsonRpc } from './json-rpc.js';
import type { ChainClient, ChainTransfer } from './types.js';

type RpcBlock = { number: string; transactions: { hash: string; to: string | null; value: string }[] };

/** Blocks one scan reads at most: a watcher far behind catches up over several scans. */
const MAX_BLOCKS_PER_SCAN = 500;
/** Where a first scan starts, behind the tip: deposits older than this on a fresh install are not looked for. */
const FIRST_SCAN_DEPTH = 5_000;

/**
 * Ethereum's JSON-RPC: reads each block after the cursor with its
 * transactions and keeps plain ether payments to deposit addresses (payments
 * made by contracts, internal transactions and tokens are not deposits here).
 * The cursor stays `confirmations` blocks behind the tip, so blocks that may
 * still be reorganised are read again and a payment that left the chain is
 * simply not reported.
 */
export function createEthereumRpcClient(url: string): ChainClient {
  const call = createJsonRpc(url);
  return {
    name: 'ethereum-rpc',
    async scan({ cursor, addresses, confirmations }) {
      const tip = Number.parseInt(await call<string>('eth_blockNumber'), 16);
      const from = cursor === null ? Math.max(0, tip - FIRST_SCAN_DEPTH) : Number(cursor) + 1;
      const to = Math.min(tip, from + MAX_BLOCKS_PER_SCAN - 1);
      const transfers: ChainTransfer[] = [];
      for (let number = from; number <= to; number += 1) {
        const block = await call<RpcBlock | null>('eth_getBlockByNumber', [`0x${number.toString(16)}`, true]);
        if (!block) break;
        for (const transaction of block.transactions) {
          const address = transaction.to?.toLowerCase();
          if (!address || !addresses.has(address)) continue;
          const amount = BigInt(transaction.value);
          if (amount <= 0n) continue;
          transfers.push({
            txid: transaction.hash,
            output: 0,
            address,
            tag: null,
            amount,
            confirmations: tip - number + 1,
          });
        }
      }
      const isComplete = to >= tip;
      const next = isComplete ? tip - confirmations : to;
      return { height: tip, transfers, cursor: String(Math.max(-1, next)), isComplete };
    },
  };
}
