import { Client, decode, hashes, RippledError, xrpToDrops, type Payment } from 'xrpl';
import type { HotWallet } from './hot-wallets.js';
import { createJsonRpc, JsonRpcError } from './json-rpc.js';

/** How many ledgers after its signing ledger xrpl.js's autofill lets a transaction wait (`LastLedgerSequence`). */
const LEDGER_OFFSET = 20;
/** What `submit` answers for a transaction the server took: applied, queued, or already held. */
const TAKEN = /^(tesSUCCESS|terQUEUED|tefALREADY|tec[A-Z_]+)$/;

/** The signer's answer to `sign` (decision 131): rippled's own `sign` answers `tx_json.hash` instead of `hash`. */
type SignerAnswer = { tx_blob: string; hash?: string; tx_json?: { hash?: string } };

/**
 * XRP: the hot wallet account's Payments are prepared on the node at XRP_NODE_URL (xrpl.js `autofill`:
 * Sequence, Fee, LastLedgerSequence), signed by an external signer speaking JSON-RPC (`sign` with
 * `{ tx_json }` → `{ tx_blob, hash }`) that holds the key, and submitted as the signed blob. A retry
 * submits the same blob: its Sequence applies once only, so it can never pay twice.
 */
export function createXrpHotWallet(options: { nodeUrl: string; signerUrl: string; account: string }) {
  const client = new Client(options.nodeUrl);
  const signer = createJsonRpc(options.signerUrl, { timeoutMs: 30_000 });
  const { account } = options;

  // The wallet connects when it needs the node. xrpl.js would also reconnect by itself after a drop
  // and race that connect ("Websocket connection never cleaned up"), so its pending retry is cancelled;
  // the retry is scheduled right after this event, hence the microtask.
  client.on('disconnected', (code) => {
    if (code !== 1000) queueMicrotask(() => void client.disconnect());
  });

  async function connected(): Promise<Client> {
    if (!client.isConnected()) await client.connect();
    return client;
  }

  /** Looks the payment up in the ledgers it may be in; undefined when the server does not have it. */
  async function lookUp(txid: string, lastLedger: number) {
    try {
      const { result } = await (
        await connected()
      ).request({
        command: 'tx',
        transaction: txid,
        min_ledger: lastLedger - LEDGER_OFFSET,
        max_ledger: lastLedger,
      });
      return { found: true as const, result };
    } catch (error) {
      if (error instanceof RippledError) {
        const data = error.data as { error?: string; searched_all?: boolean } | undefined;
        if (data?.error === 'txnNotFound')
          return { found: false as const, searchedAll: data.searched_all === true };
      }
      throw error;
    }
  }

  const wallet: HotWallet & Required<Pick<HotWallet, 'close'>> = {
    name: 'xrp-signer',
    async sign({ address, tag, amount }) {
      const payment: Payment = {
        TransactionType: 'Payment',
        Account: account,
        Destination: address,
        Amount: amount.toString(),
        ...(tag === null ? {} : { DestinationTag: Number.parseInt(tag, 10) }),
      };
      const prepared = await (await connected()).autofill(payment);
      const signed = await signer<SignerAnswer>('sign', [{ tx_json: prepared }]);
      const txid = hashes.hashSignedTx(signed.tx_blob);
      const claimed = signed.hash ?? signed.tx_json?.hash;
      if (claimed !== undefined && claimed.toUpperCase() !== txid)
        throw new JsonRpcError(`sign: the signer named ${claimed}, but the blob is ${txid}`);
      // The signer must have signed what was asked, not another payment.
      const blob = decode(signed.tx_blob);
      for (const field of ['Account', 'Destination', 'Amount', 'DestinationTag', 'Sequence'] as const)
        if (blob[field] !== prepared[field])
          throw new JsonRpcError(`sign: the signed ${field} differs from the payment ${txid}`);
      return { txid, raw: signed.tx_blob };
    },
    async broadcast({ txid, raw }) {
      const { result } = await (await connected()).request({ command: 'submit', tx_blob: raw });
      if (result.tx_json.hash !== undefined && result.tx_json.hash !== txid)
        throw new JsonRpcError(`submit: the server took ${result.tx_json.hash}, not ${txid}`);
      if (TAKEN.test(result.engine_result)) return;
      // The Sequence is used: by this payment (a retry after it applied), or by another, which staff must see.
      if (result.engine_result === 'tefPAST_SEQ') {
        const lastLedger = decode(raw).LastLedgerSequence;
        if (typeof lastLedger === 'number' && (await lookUp(txid, lastLedger)).found) return;
      }
      throw new JsonRpcError(`submit: ${result.engine_result} (${result.engine_result_message}) for ${txid}`);
    },
    async confirmations(txid, raw) {
      const lastLedger = decode(raw).LastLedgerSequence;
      if (typeof lastLedger !== 'number') throw new JsonRpcError(`${txid} has no LastLedgerSequence`);
      const found = await lookUp(txid, lastLedger);
      const tip = await client.getLedgerIndex();
      if (!found.found) {
        // Past its LastLedgerSequence and in none of its ledgers: it can never apply, and was not paid.
        if (found.searchedAll && tip > lastLedger)
          throw new JsonRpcError(`${txid} expired after ledger ${lastLedger} without being validated`);
        return null;
      }
      const { result } = found;
      if (!result.validated || result.ledger_index === undefined) return 0;
      const outcome = typeof result.meta === 'object' ? result.meta.TransactionResult : undefined;
      if (outcome !== 'tesSUCCESS') throw new JsonRpcError(`${txid} failed on the ledger: ${outcome}`);
      return tip - result.ledger_index + 1;
    },
    async balance() {
      const ready = await connected();
      const [info, server] = await Promise.all([
        ready.request({ command: 'account_info', account, ledger_index: 'validated' }),
        ready.request({ command: 'server_info' }),
      ]);
      const ledger = server.result.info.validated_ledger;
      if (!ledger) throw new JsonRpcError('server_info: the server has no validated ledger');
      // The reserve never leaves the account: what it may send is the balance above it.
      const reserve =
        BigInt(xrpToDrops(ledger.reserve_base_xrp)) +
        BigInt(info.result.account_data.OwnerCount) * BigInt(xrpToDrops(ledger.reserve_inc_xrp));
      const spendable = BigInt(info.result.account_data.Balance) - reserve;
      return spendable > 0n ? spendable : 0n;
    },
    async close() {
      await client.disconnect();
    },
  };
  return wallet;
}
