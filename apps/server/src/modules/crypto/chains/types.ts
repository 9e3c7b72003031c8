import type { CryptoAsset } from '@florin/contracts';

/** One payment to an address as a chain reports it. */
export type ChainTransfer = {
  txid: string;
  /** The output (UTXO chains) or 0 (account chains): with the txid, what makes a deposit unique. */
  output: number;
  address: string;
  /** XRP destination tag, as a decimal string; null when the sender gave none. */
  tag: string | null;
  /** Minor units of the coin. */
  amount: bigint;
  /** 0 while in the mempool. */
  confirmations: number;
};

export type ChainScan = {
  /** The chain's height now. */
  height: number;
  /**
   * Every payment to `addresses` in the mempool or in a block after `cursor`
   * on the chain as it is now (a reorganised-away payment is simply absent).
   */
  transfers: ChainTransfer[];
  /**
   * Where the next scan starts: a block `confirmations` deep, so every payment
   * that is not yet fully confirmed is reported again next time.
   */
  cursor: string | null;
  /**
   * Whether the scan reached the chain's tip. A scan still catching up has
   * not looked at the newest blocks, so a pending deposit it did not report
   * may still be there.
   */
  isComplete: boolean;
};

/**
 * One chain family (the simulated chain, Bitcoin Core's RPC for BTC, LTC and
 * BCH, Ethereum's RPC, the XRP Ledger's websocket API): what the deposit watcher needs to find payments to
 * the customers' addresses and count their confirmations.
 */
export type ChainClient = {
  readonly name: string;
  scan(input: {
    asset: CryptoAsset;
    cursor: string | null;
    /** Deposit addresses of the coin (lower case for ETH); a client may filter by them. */
    addresses: ReadonlySet<string>;
    confirmations: number;
  }): Promise<ChainScan>;
  /**
   * A chain that streams (the XRP Ledger) calls `listener` when a payment to
   * a watched address is final, so the watcher scans now, not at its interval.
   */
  onActivity?(listener: () => void): void;
  /** Lets go of the node (an open websocket) at shutdown. */
  close?(): Promise<void>;
};
