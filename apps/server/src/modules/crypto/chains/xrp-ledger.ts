import { Client } from 'xrpl';
import type { ChainClient, ChainTransfer } from './types.js';

/** `account_tx` entries one request asks for (rippled and Clio allow up to 400). */
const PAGE_LIMIT = 200;
/** Pages one scan reads at most: a watcher far behind catches up over several scans. */
const MAX_PAGES_PER_SCAN = 50;

/**
 * A transaction as the XRP Ledger's API v2 writes it, in an `account_tx`
 * entry and in an account stream message alike: the fields read here.
 */
type LedgerTransaction = {
  hash?: string;
  ledger_index?: number;
  validated?: boolean;
  tx_json?: { TransactionType: string; Destination?: string; DestinationTag?: number };
  meta?: string | { TransactionResult: string; delivered_amount?: unknown };
};

type Payment = Omit<ChainTransfer, 'confirmations'> & { ledgerIndex: number };

/**
 * The XRP a transaction paid into `house`, or null when it is no such
 * payment: not yet validated, not a Payment, to another account, failed
 * (a `tec` result is in a validated ledger too, having moved nothing but
 * the fee), or of a token. The amount is `delivered_amount`, never `Amount`
 * (`DeliverMax` in API v2): a partial payment delivers less than it names.
 */
export function paymentTo(house: string, transaction: LedgerTransaction): Payment | null {
  const { hash, ledger_index: ledgerIndex, tx_json: tx, meta } = transaction;
  if (transaction.validated !== true || !hash || ledgerIndex === undefined) return null;
  if (tx?.TransactionType !== 'Payment' || tx.Destination !== house) return null;
  if (typeof meta !== 'object' || meta.TransactionResult !== 'tesSUCCESS') return null;
  // XRP is a string of drops; a token is an object, and 'unavailable' marks ledgers older than 2014.
  const delivered = meta.delivered_amount;
  if (typeof delivered !== 'string' || !/^\d{1,19}$/.test(delivered)) return null;
  const amount = BigInt(delivered);
  if (amount <= 0n) return null;
  const tag = tx.DestinationTag === undefined ? null : String(tx.DestinationTag);
  return { txid: hash, output: 0, address: house, tag, amount, ledgerIndex };
}

export type XrpLedgerClient = ChainClient & {
  /** Called when the house account's stream reports a validated payment to it (or the stream came back). */
  onActivity(listener: () => void): void;
  close(): Promise<void>;
};

/**
 * The XRP Ledger through rippled or Clio's websocket API (xrpl.js, API v2).
 * A scan reads the validated ledger's index, then `account_tx` for the house
 * account from the ledger after the cursor up to it, oldest first, page by
 * page with the marker; every XRP payment to the house in those ledgers is
 * reported with its confirmations (validated ledgers since, its own
 * included). The cursor is the last ledger read whole whose payments are all
 * deep enough, so the next scan starts right after it and everything still
 * counting is reported again; a first scan starts at the oldest ledger the
 * server holds. After a scan the client follows the account's stream and
 * tells `onActivity` of each validated payment, so the watcher need not wait
 * for its interval; the scan stays the one source of deposits (a stream says
 * nothing of what happened while it was down).
 */
export function createXrpLedgerClient(url: string): XrpLedgerClient {
  const client = new Client(url);
  const listeners: (() => void)[] = [];
  /** The account this connection's stream follows; a new connection follows nothing until subscribed. */
  let following: string | null = null;
  /** Whether a stream was wanted: after xrpl.js reconnects, the next scan subscribes again. */
  let wantsStream = false;

  const notify = () => {
    for (const listener of listeners) listener();
  };
  client.on('transaction', (message) => {
    if (following !== null && paymentTo(following, message)) notify();
  });
  client.on('disconnected', () => {
    following = null;
  });
  // xrpl.js reconnects by itself, but the server forgot the subscription and what came meanwhile was not streamed.
  client.on('connected', () => {
    if (wantsStream) notify();
  });

  async function follow(house: string): Promise<void> {
    if (following === house) return;
    await client.request({ command: 'subscribe', accounts: [house] });
    following = house;
    wantsStream = true;
  }

  /** The house account's transactions in ledgers `from`…`tip`, oldest first, up to the page limit. */
  async function readAccount(house: string, from: number, tip: number) {
    const read: LedgerTransaction[] = [];
    let marker: unknown;
    let pages = 0;
    do {
      const response = await client.request({
        command: 'account_tx',
        account: house,
        ledger_index_min: from,
        ledger_index_max: tip,
        forward: true,
        limit: PAGE_LIMIT,
        ...(marker === undefined ? {} : { marker }),
      });
      read.push(...response.result.transactions);
      marker = response.result.marker;
      pages += 1;
    } while (marker !== undefined && pages < MAX_PAGES_PER_SCAN);
    return { read, isComplete: marker === undefined };
  }

  return {
    name: 'xrp-ledger',
    async scan({ cursor, addresses, confirmations }) {
      if (!client.isConnected()) await client.connect();
      const tip = await client.getLedgerIndex();
      const house = [...addresses][0];
      if (!house) return { height: tip, transfers: [], cursor, isComplete: true };
      const from = cursor === null ? -1 : Number(cursor) + 1;
      const { read, isComplete } =
        from > tip ? { read: [], isComplete: true } : await readAccount(house, from, tip);

      const transfers: ChainTransfer[] = [];
      for (const transaction of read) {
        const payment = paymentTo(house, transaction);
        if (!payment) continue;
        const { ledgerIndex, ...transfer } = payment;
        transfers.push({ ...transfer, confirmations: tip - ledgerIndex + 1 });
      }
      // A scan cut short by the page limit may have read only part of its last ledger: read that one again.
      const readWhole = isComplete ? tip : (read.at(-1)?.ledger_index ?? from) - 1;
      const settled = Math.min(readWhole, tip - confirmations + 1);
      const next = cursor === null ? settled : Math.max(Number(cursor), settled);
      await follow(house);
      return { height: tip, transfers, cursor: String(next), isComplete };
    },
    onActivity(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
      wantsStream = false;
      await client.disconnect();
    },
  };
}
