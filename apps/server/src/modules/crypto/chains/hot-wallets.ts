import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { CryptoAsset } from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import { createJsonRpc, JsonRpcError } from './json-rpc.js';

/** A payment the node's wallet signed and Florin stored, before it is broadcast. */
export type SignedPayout = { txid: string; raw: string };

/**
 * A hot wallet held by a node (decision 131): the node keeps the keys and signs, Florin never holds
 * one. A payout is signed first and stored with its withdrawal, then broadcast: a retry broadcasts
 * the stored transaction again, so a payout that reached the node once is never paid twice.
 */
export type HotWallet = {
  readonly name: string;
  /** Builds and signs the payment in the node's wallet; nothing is broadcast yet. */
  sign(input: {
    idempotencyKey: string;
    address: string;
    tag: string | null;
    amount: bigint;
  }): Promise<SignedPayout>;
  /** Broadcasts a stored payment; one the node or the chain already has counts as broadcast. */
  broadcast(payout: SignedPayout): Promise<void>;
  /** The stored payment's confirmations; null while the node does not know it; throws when it failed or expired. */
  confirmations(txid: string, raw: string): Promise<number | null>;
  /** What the hot wallet holds now, in minor units. */
  balance(): Promise<bigint>;
  /** At shutdown: closes a connection the wallet keeps open (the XRP Ledger's websocket). */
  close?(): Promise<void>;
};

/** Bitcoin Core's `RPC_VERIFY_ALREADY_IN_CHAIN` ("Transaction already in block chain", or its outputs already spent by it). */
const ALREADY_IN_CHAIN = -27;

/**
 * Bitcoin Core's wallet RPC (Litecoin Core, Bitcoin Cash Node alike) for a spending wallet on the
 * node: `walletcreatefundedpsbt` picks the coins and change (locking them, so the next payout takes
 * others), `walletprocesspsbt` signs, `finalizepsbt` gives the raw transaction and
 * `decoderawtransaction` its txid, all before anything leaves the node; `sendrawtransaction` then
 * broadcasts it, as often as it takes.
 */
export function createBitcoinHotWallet(url: string, asset: CryptoAsset): HotWallet {
  const call = createJsonRpc(url, { version: '1.0', timeoutMs: 30_000 });
  return {
    name: 'bitcoin-rpc',
    async sign({ idempotencyKey, address, amount }) {
      const funded = await call<{ psbt: string; fee: number; changepos: number }>('walletcreatefundedpsbt', [
        [],
        [{ [address]: formatAmount(amount, asset) }],
        0,
        { lockUnspents: true, replaceable: true },
      ]);
      const processed = await call<{ psbt: string; complete: boolean }>('walletprocesspsbt', [
        funded.psbt,
        true,
        'ALL',
      ]);
      const final = await call<{ hex?: string; complete: boolean }>('finalizepsbt', [processed.psbt, true]);
      if (!final.complete || !final.hex)
        throw new JsonRpcError(`finalizepsbt: the wallet could not sign the payout ${idempotencyKey}`);
      const decoded = await call<{ txid: string }>('decoderawtransaction', [final.hex]);
      return { txid: decoded.txid, raw: final.hex };
    },
    async broadcast({ txid, raw }) {
      try {
        const sent = await call<string>('sendrawtransaction', [raw]);
        if (sent !== txid)
          throw new JsonRpcError(`sendrawtransaction: the node broadcast ${sent}, not ${txid}`);
      } catch (error) {
        if (error instanceof JsonRpcError && error.code === ALREADY_IN_CHAIN) return;
        throw error;
      }
    },
    async confirmations(txid) {
      try {
        return (await call<{ confirmations: number }>('gettransaction', [txid])).confirmations;
      } catch (error) {
        // RPC_INVALID_ADDRESS_OR_KEY: "Invalid or non-wallet transaction id".
        if (error instanceof JsonRpcError && error.code === -5) return null;
        throw error;
      }
    },
    async balance() {
      // A double holds every 8-decimal amount below 21 million coins exactly enough for toFixed(8).
      return parseAmount((await call<number>('getbalance')).toFixed(8), asset);
    },
  };
}

/** The nodes' words for a transaction they already have (geth, Nethermind, anvil). */
const ALREADY_KNOWN = /already known|already imported|known transaction|nonce too low/i;

/**
 * Ethereum: the node's account (or an external signer such as clef) signs with
 * `eth_signTransaction` at a nonce fixed when it signs, and the raw transaction is broadcast with
 * `eth_sendRawTransaction`. A retry broadcasts the same nonce, so it cannot spend twice; "already
 * known" or "nonce too low" from the node means it has it.
 */
export function createEthereumHotWallet(options: {
  nodeUrl: string;
  signerUrl?: string;
  account: string;
}): HotWallet {
  const node = createJsonRpc(options.nodeUrl, { timeoutMs: 30_000 });
  const signer = options.signerUrl ? createJsonRpc(options.signerUrl, { timeoutMs: 30_000 }) : node;
  const from = options.account.toLowerCase();
  async function confirmations(txid: string): Promise<number | null> {
    const receipt = await node<{ blockNumber: string | null; status?: string } | null>(
      'eth_getTransactionReceipt',
      [txid],
    );
    if (!receipt?.blockNumber) {
      const pending = await node<{ hash: string } | null>('eth_getTransactionByHash', [txid]);
      return pending ? 0 : null;
    }
    if (receipt.status === '0x0') throw new JsonRpcError(`${txid} failed on chain`);
    const tip = Number.parseInt(await node<string>('eth_blockNumber'), 16);
    return tip - Number.parseInt(receipt.blockNumber, 16) + 1;
  }
  return {
    name: 'ethereum-rpc',
    async sign({ address, amount }) {
      const [nonce, gasPrice] = await Promise.all([
        node<string>('eth_getTransactionCount', [from, 'pending']),
        node<string>('eth_gasPrice'),
      ]);
      const transaction = {
        from,
        to: address,
        value: `0x${amount.toString(16)}`,
        gas: '0x5208',
        gasPrice,
        nonce,
      };
      // anvil answers the raw transaction; geth and clef answer { raw, tx }.
      const signed = await signer<string | { raw: string }>('eth_signTransaction', [transaction]);
      const raw = typeof signed === 'string' ? signed : signed.raw;
      return { txid: `0x${bytesToHex(keccak_256(hexToBytes(raw.slice(2))))}`, raw };
    },
    async broadcast({ txid, raw }) {
      try {
        const sent = await node<string>('eth_sendRawTransaction', [raw]);
        if (sent.toLowerCase() !== txid)
          throw new JsonRpcError(`eth_sendRawTransaction: the node sent ${sent}, not ${txid}`);
      } catch (error) {
        if (
          error instanceof JsonRpcError &&
          ALREADY_KNOWN.test(error.message) &&
          (await confirmations(txid)) !== null
        )
          return;
        throw error;
      }
    },
    confirmations,
    async balance() {
      return BigInt(await node<string>('eth_getBalance', [from, 'latest']));
    },
  };
}
